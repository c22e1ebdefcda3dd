// Two requests at once interleave at their awaits: a write that lands between a service's read and its own write.
import type { Db } from "../../src/env";
import { client } from "../../src/db/prepared";

type Before = () => Promise<unknown>;

/** `real`, with `before` run ahead of its first `method` statement, once the statement is awaited: after the writer's
 * reads. */
function statementAfter(method: "insert" | "update" | "delete", real: Db, before: Before): Db {
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
      if (key !== method || !pending) return typeof value === "function" ? value.bind(t) : value;
      pending = false;
      return (...args: Parameters<Db[typeof method]>) =>
        deferred((t[method] as (...a: typeof args) => object)(...args));
    },
  });
}

/** `real`, with `before` run ahead of its first UPDATE, once the statement is awaited: after the writer's reads. */
export const updatingAfter = (real: Db, before: Before): Db => statementAfter("update", real, before);

/** `real`, with `before` run ahead of its first INSERT, once the statement is awaited: after the writer's reads. */
export const insertingAfter = (real: Db, before: Before): Db => statementAfter("insert", real, before);

/** `real`, with `before` run ahead of its first DELETE, once the statement is awaited. */
export const deletingAfter = (real: Db, before: Before): Db => statementAfter("delete", real, before);

/** `target`, with `before` run ahead of its first `batch` call: after the writer's reads, before its writes. */
function firstBatchAfter<T extends object>(target: T, before: Before): T {
  let pending = true;
  return new Proxy(target, {
    get(t, key) {
      const value = Reflect.get(t, key, t);
      if (typeof value !== "function") return value;
      if (key !== "batch" || !pending) return value.bind(t);
      pending = false;
      return async (...args: unknown[]) => {
        await before();
        return await value.apply(t, args);
      };
    },
  });
}

/** `real`, with `before` run ahead of its first (drizzle) batch. */
export const batchingAfter = (real: Db, before: Before): Db => firstBatchAfter(real, before);

/**
 * `real`, with `before` run ahead of the first batch on its D1 binding (`batch` of src/db/prepared.ts, which a service
 * writing D1 directly uses, not drizzle's).
 */
export function d1BatchingAfter(real: Db, before: Before): Db {
  const d1 = firstBatchAfter(client(real), before);
  return new Proxy(real, {
    get(t, key) {
      if (key === "$client") return d1;
      const value = Reflect.get(t, key, t);
      return typeof value === "function" ? value.bind(t) : value;
    },
  });
}

/**
 * Runs `request` (a request through `fetch`, whose services open their own database) with `before` run ahead of the
 * first batch sent to the binding `d1` that `matches` (by the statements' SQL), then sent.
 */
export async function whileBatching<T>(
  d1: D1Database,
  matches: (sql: string[]) => boolean,
  before: Before,
  request: () => Promise<T>,
): Promise<T> {
  const real = d1.batch;
  const patched = d1 as { batch?: (statements: D1PreparedStatement[]) => Promise<D1Result[]> };
  // The binding's method is its class's: the patch is an own property, deleted to restore it.
  const restore = () => delete patched.batch;
  patched.batch = async (statements) => {
    if (!matches(statements.map((s) => (s as D1PreparedStatement & { statement: string }).statement)))
      return real.call(d1, statements);
    restore();
    await before();
    return real.call(d1, statements);
  };
  try {
    return await request();
  } finally {
    restore();
  }
}

/**
 * `whileBatching` on each of `d1s` (an organization's parts: the write's part is not known ahead), `before` run once,
 * ahead of the first batch that `matches` on any of them.
 */
export async function whileBatchingAny<T>(
  d1s: D1Database[],
  matches: (sql: string[]) => boolean,
  before: Before,
  request: () => Promise<T>,
): Promise<T> {
  let pending = true;
  const once = async () => {
    if (!pending) return;
    pending = false;
    await before();
  };
  const run = [...new Set(d1s)].reduceRight<() => Promise<T>>(
    (inner, d1) => () => whileBatching(d1, matches, once, inner),
    request,
  );
  return await run();
}
