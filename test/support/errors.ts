import { expect } from "vitest";

/** A class of errors, abstract or not (`ApiError`, `ModelError`, `Error`). */
type ErrorClass<E> = abstract new (...args: never[]) => E;

/** `err`, checked to be an instance of `type`: the test fails (naming what it got) if it is not. */
export function expectInstance<E>(err: unknown, type: ErrorClass<E>): E {
  if (!(err instanceof type)) return expect.unreachable(`expected a ${type.name}, got ${String(err)}`);
  return err;
}

/** The error `promise` rejects with, checked to be a `type`: the test fails if it fulfils or rejects otherwise. */
export async function rejectionOf<E>(promise: Promise<unknown>, type: ErrorClass<E>): Promise<E> {
  const err = await promise.then(
    () => expect.unreachable("should have failed"),
    (e: unknown) => e,
  );
  return expectInstance(err, type);
}

/** The error `run` throws, checked to be a `type`: the test fails if it returns or throws something else. */
export function thrownBy<E>(run: () => unknown, type: ErrorClass<E>): E {
  try {
    run();
  } catch (err) {
    return expectInstance(err, type);
  }
  return expect.unreachable("should have thrown");
}
