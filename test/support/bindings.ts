import type { Bindings } from "../../src/env";

/**
 * `impl` as the Worker's binding `name`: a stand-in for a binding without a local runtime (Workers AI, Vectorize)
 * or one the test holds (a queue whose messages it delivers itself, a database that fails). It implements only
 * what the code under test calls, which the binding's type cannot check: the cast is written here once. The
 * result keeps `impl`'s own members (what it recorded) beside the binding's type.
 */
export const standIn = <K extends keyof Bindings, I extends object>(_name: K, impl: I) =>
  impl as I & NonNullable<Bindings[K]>;
