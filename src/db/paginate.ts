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

/** The same page with its items mapped (row to record). */
export const mapPage = <T, U>(page: Page<T>, f: (row: T) => U): Page<U> => ({
  count: page.count,
  items: page.items.map(f),
});
