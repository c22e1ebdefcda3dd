// Two requests at once interleave at their awaits: a write that lands between a service's read and its own write.
import type { Db } from "../../src/env";

/** `real`, with `before` run ahead of its first UPDATE, once the statement is awaited: after the writer's reads. */
export function updatingAfter(real: Db, before: () => Promise<unknown>): Db {
  let pending = true;
  const deferred = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(t, key) {
        // Awaited (`then`) or caught (a service's `.catch` of a unique violation): `before` first, then the statement.
        if (key === "then" || key === "catch" || key === "finally") {
          const settled = () => before().then(() => t as PromiseLike<unknown>);
          return (...args: never[]) => (settled()[key] as (...a: never[]) => unknown)(...args);
        }
        const value = Reflect.get(t, key, t);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          const out = value.apply(t, args);
          return out && typeof out === "object" ? deferred(out) : out;
        };
      },
    });
  return new Proxy(real, {
    get(t, key) {
      const value = Reflect.get(t, key, t);
      if (key !== "update" || !pending) return typeof value === "function" ? value.bind(t) : value;
      pending = false;
      return (...args: Parameters<Db["update"]>) => deferred(t.update(...args));
    },
  });
}
