import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";
import type { Db } from "../env";
import { watchWrites } from "./write-watch";

/**
 * One query builder per D1 binding, made once per isolate: given the schema, drizzle walks all
 * tables when it is built (~0.7 ms, "The completion path" in docs/decisions.md). Its writes are
 * watched: a write to a table a per-isolate cache reads makes the cache forget (write-watch.ts).
 */
const builders = new WeakMap<D1Database, Db>();
export function getDb(d1: D1Database): Db {
  let db = builders.get(d1);
  if (!db) builders.set(d1, (db = drizzle(watchWrites(d1), { schema })));
  return db;
}
export { schema };
