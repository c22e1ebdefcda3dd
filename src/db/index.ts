import { drizzle } from "drizzle-orm/d1";
import { env } from "cloudflare:workers";
import * as schema from "./schema";
import type { Bindings, Db } from "../env";
import { guardPlane, type Plane } from "./planes";
import { watchWrites } from "./write-watch";

/**
 * One query builder per D1 binding, made once per isolate: given the schema, drizzle walks all
 * tables when it is built (~0.7 ms, "The completion path" in docs/decisions.md). Its writes are
 * watched: a write to a table a per-isolate cache reads makes the cache forget (write-watch.ts).
 */
const builders = new WeakMap<D1Database, Db>();
export function getDb(d1: D1Database): Db {
  let db = builders.get(d1);
  if (!db) builders.set(d1, (db = drizzle(watchWrites(guarded(d1, "control")), { schema })));
  return db;
}

/**
 * With `PLANE_GUARD` (the tests' configuration), a builder on `DB` for one plane refuses statements naming the other
 * plane's tables (db/planes.ts): "data" guards the data plane's builders, "both" the control plane's `DB` too, and
 * "report" logs the control plane's statements naming data tables instead of refusing them.
 */
function guarded(d1: D1Database, plane: Plane): D1Database {
  const mode = (env as Partial<Bindings>).PLANE_GUARD;
  if (plane === "data") return mode ? guardPlane(d1, plane) : d1;
  return (mode === "both" || mode === "report") && d1 === env.DB ? guardPlane(d1, plane, mode === "report") : d1;
}

const dataBuilders = new WeakMap<D1Database, Db>();
/** The builder for an organization's data plane on `d1` (services/shards `dataDb`); `getDb`'s own without a guard. */
export function getDataDb(d1: D1Database): Db {
  const checked = guarded(d1, "data");
  if (checked === d1) return getDb(d1);
  let db = dataBuilders.get(d1);
  if (!db) dataBuilders.set(d1, (db = drizzle(watchWrites(checked), { schema })));
  return db;
}
export { schema };
