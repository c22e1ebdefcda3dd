import { getTableColumns, is, Param, Placeholder, SQL, sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "../env";
import { keepsCachesCurrent } from "./write-watch";

type Query = { toSQL(): { sql: string; params: unknown[] } };
type Values = Record<string, unknown>;

/** A named value of a `prepared` statement, where drizzle wants an SQL expression (a SET value, a SELECT column). */
export const ph = (name: string) => sql`${sql.placeholder(name)}`;

/**
 * A statement drizzle builds once per isolate, with `sql.placeholder(name)` where its values go;
 * each use binds the values to a D1 statement. Drizzle's query builder costs the local runtime
 * 0.1-0.4 ms a statement, and a turn of a conversation writes up to ten (docs/decisions.md, "The
 * completion path"). A placeholder in a column's place is encoded as drizzle encodes that column
 * (JSON, booleans); null binds as SQL NULL. Run the statements with `batch`. `keepsCaches`: a
 * write that leaves every per-isolate cache right (see `keepsCachesCurrent` in db/write-watch.ts).
 */
export function prepared<V extends Values>(
  build: (db: Db) => Query,
  { keepsCaches = false } = {},
): (db: Db, values: V) => D1PreparedStatement {
  let built: { sql: string; bind: ((values: Values) => unknown)[] } | undefined;
  return (db, values) => {
    if (!built) {
      const query = build(db).toSQL();
      built = { sql: query.sql, bind: query.params.map(binder) };
      if (keepsCaches) keepsCachesCurrent(query.sql);
    }
    return client(db)
      .prepare(built.sql)
      .bind(...built.bind.map((bind) => bind(values)));
  };
}

function binder(param: unknown): (values: Values) => unknown {
  if (is(param, Placeholder)) return (values) => valueFor(values, param.name);
  if (is(param, Param) && is(param.value, Placeholder)) {
    const { name } = param.value;
    const encoder = param.encoder;
    return (values) => {
      const value = valueFor(values, name);
      return value === null ? null : encoder.mapToDriverValue(value);
    };
  }
  return () => param; // a constant of the statement
}

function valueFor(values: Values, name: string): unknown {
  if (!(name in values)) throw new Error(`No value for "${name}"`);
  return values[name] ?? null;
}

/**
 * Inserts one row of `table`, every column named: what the row leaves out gets the column's
 * default (its `$defaultFn`, else its `default`), as drizzle's own insert gives it.
 */
export function preparedInsert<T extends SQLiteTable>(
  table: T,
  options: { keepsCaches?: boolean } = {},
): (db: Db, row: T["$inferInsert"]) => D1PreparedStatement {
  const columns = getTableColumns(table);
  for (const [key, column] of Object.entries(columns))
    if (is(column.default, SQL)) throw new Error(`${key}: SQL defaults are not supported`);
  const withDefaults = (values: Values) => {
    for (const key in columns)
      if (values[key] === undefined)
        values[key] = columns[key].defaultFn ? columns[key].defaultFn() : (columns[key].default ?? null);
    return values;
  };
  const insert = prepared(
    (db) =>
      db
        .insert(table)
        .values(Object.fromEntries(Object.keys(columns).map((key) => [key, sql.placeholder(key)])) as never),
    options,
  );
  return (db, row) => insert(db, withDefaults({ ...row }));
}

/** Maps a row of `table` as D1 returns it (column names, stored values) to drizzle's (keys, decoded values). */
export function rowMapper<T extends SQLiteTable>(table: T): (raw: unknown) => T["$inferSelect"] {
  const columns = Object.entries(getTableColumns(table)).map(([key, column]) => [key, column.name, column] as const);
  return (raw) => {
    const row: Record<string, unknown> = {};
    for (const [key, name, column] of columns) {
      const value = (raw as Record<string, unknown>)[name];
      row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
    }
    return row as T["$inferSelect"];
  };
}

/** A statement written in SQL (an INSERT ... SELECT upsert, which the query builder says less plainly) on `db`'s D1
 * binding, for `batch`. */
export const sqlStatement = (db: Db, query: string) => client(db).prepare(query);

/** Runs D1 statements in one batch (one transaction). */
export const batch = (db: Db, statements: D1PreparedStatement[]) => client(db).batch(statements);

/** The D1 binding under a drizzle database (drizzle's `$client`, which the Db type leaves out). */
export const client = (db: Db) => (db as Db & { $client: D1Database }).$client;
