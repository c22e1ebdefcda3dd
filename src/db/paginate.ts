import { asc, count, desc, gt, lt, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "../env";
import type { Cursor } from "../lib/pagination";

/** One page of a page-number list: the total, and the rows of the page. */
export interface Page<T> {
  count: number;
  items: T[];
}

/** The window a page-number list reads (see `pageParams` in lib/pagination). */
export interface PageWindow {
  limit: number;
  offset: number;
}

/**
 * Reads a page-number list's total and its page together. `count` is a query answering `[{ n }]`
 * (drizzle `db.select({ n: count() })...`), `rows` reads the page's window in list order.
 * Routes answer with `pageResponse(c, p, page.count, page.items)`.
 */
export async function paginate<T>(
  window: PageWindow,
  count: PromiseLike<{ n: number }[]>,
  rows: (window: PageWindow) => PromiseLike<T[]>,
): Promise<Page<T>> {
  const [[total], items] = await Promise.all([count, rows(window)]);
  return { count: total?.n ?? 0, items };
}

/** A table whose rows carry their creation time and an id (the tie-break of rows created in the same millisecond). */
type Dated = SQLiteTable & { createdAt: SQLiteColumn; id: SQLiteColumn };

/** A page of `table`'s rows that match `where`, newest first: the order of most of the API's lists. */
export function newestFirstPage<T extends Dated>(
  db: Db,
  table: T,
  where: SQL | undefined,
  window: PageWindow,
): Promise<Page<T["$inferSelect"]>> {
  return paginate(window, db.select({ n: count() }).from(table).where(where), ({ limit, offset }) =>
    db.select().from(table).where(where).orderBy(desc(table.createdAt), desc(table.id)).limit(limit).offset(offset),
  );
}

/** The same page with its items mapped (row to record). */
export const mapPage = <T, U>(page: Page<T>, f: (row: T) => U): Page<U> => ({
  count: page.count,
  items: page.items.map(f),
});

/** Where a cursor page starts and how it is read (see `cursorWindow`). */
export interface CursorWindow {
  /** The rows past the cursor's key in the direction read; none without a cursor. */
  after: SQL | undefined;
  orderBy: SQL[];
  /** `pageSize + 1`: the extra row tells whether more follow; `cursorResponse` drops it. */
  limit: number;
  /** Whether the rows are read in ascending order of the keys (the order `orderBy` says). */
  ascending: boolean;
}

/**
 * A cursor page's window over a list ordered by `keys` (one column or a tuple, each `order`). Forwards
 * ("n", or no cursor) reads in list order past the cursor's `values`; backwards ("p") reads the rows
 * before them in reverse, which `cursorResponse` (lib/pagination) turns back into list order.
 */
export function cursorWindow(
  keys: SQLWrapper[],
  order: "asc" | "desc",
  cursor: Cursor | null,
  values: unknown[],
  pageSize: number,
): CursorWindow {
  const ascending = (order === "asc") !== (cursor?.d === "p");
  let after: SQL | undefined;
  if (cursor) {
    if (keys.length === 1) after = ascending ? gt(keys[0], values[0]) : lt(keys[0], values[0]);
    else {
      const row = sql`(${sql.join(keys, sql`, `)})`;
      const bound = sql`(${sql.join(
        values.map((v) => sql`${v}`),
        sql`, `,
      )})`;
      after = ascending ? sql`${row} > ${bound}` : sql`${row} < ${bound}`;
    }
  }
  return { after, orderBy: keys.map((k) => (ascending ? asc(k) : desc(k))), limit: pageSize + 1, ascending };
}
