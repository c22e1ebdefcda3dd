// The organization's ordered lists over its data parts (docs/scale.md §5, "One organization over several shards",
// step 4): each part is asked for the rows the page needs, with the list's WHERE and ORDER BY, and the answers are
// merged in that order as SQLite compares (compareSql). A page-number list asks each part for its first offset + size
// rows and adds the counts; a cursor list asks each for its page and the row past it. An organization with one part
// (every one but those split) runs its list's statements once, as they are, and nothing is merged.
import type { Page, PageWindow } from "../../db/paginate";
import type { Db } from "../../env";
import { compareSql } from "../../lib/sql";

/** A value of a list's sort key as SQL holds it. */
export type SortValue = string | number | null;

/** An order over rows by their sort keys, compared as SQLite's ORDER BY does: every key ascending, or every one
 * descending (the lists sort their keys one way). */
export function sqlOrder<T>(keys: (row: T) => SortValue[], descending = false): (a: T, b: T) => number {
  return (a, b) => {
    const [x, y] = [keys(a), keys(b)];
    for (let i = 0; i < x.length; i++) {
      const c = compareSql(x[i], y[i]);
      if (c) return descending ? -c : c;
    }
    return 0;
  };
}

/**
 * Lists each sorted by `compare`, merged in that order, the first `limit` rows. Equal rows keep the order of the
 * lists (the parts newest first) and their order within each.
 */
export function mergeSorted<T>(lists: T[][], compare: (a: T, b: T) => number, limit = Number.POSITIVE_INFINITY): T[] {
  const at = lists.map(() => 0);
  const merged: T[] = [];
  while (merged.length < limit) {
    let best = -1;
    for (let i = 0; i < lists.length; i++) {
      if (at[i] >= lists[i].length) continue;
      if (best < 0 || compare(lists[i][at[i]], lists[best][at[best]]) < 0) best = i;
    }
    if (best < 0) break;
    merged.push(lists[best][at[best]++]);
  }
  return merged;
}

/**
 * The first `limit` rows of a list over the parts (a cursor's page and the row past it, a queue's batch, all of
 * them): `read` answers a part's first `limit` in the list's order, `compare`.
 */
export async function firstAcrossParts<T>(
  parts: Db[],
  read: (part: Db) => PromiseLike<T[]>,
  compare: (a: T, b: T) => number,
  limit?: number,
): Promise<T[]> {
  if (parts.length === 1) return read(parts[0]);
  return mergeSorted(await Promise.all(parts.map(read)), compare, limit);
}

/**
 * A page-number list's window over the parts and its total: `read` answers a part's window in the list's order
 * (`compare`) and its count. Each part is asked for the rows before the window's end, from the first: the window
 * of the merge is taken, the counts added.
 */
export async function pageAcrossParts<T>(
  parts: Db[],
  window: PageWindow,
  read: (part: Db, window: PageWindow) => PromiseLike<Page<T>>,
  compare: (a: T, b: T) => number,
): Promise<Page<T>> {
  if (parts.length === 1) return read(parts[0], window);
  const end = window.offset + window.limit;
  const pages = await Promise.all(parts.map((part) => read(part, { offset: 0, limit: end })));
  return {
    count: pages.reduce((sum, page) => sum + page.count, 0),
    items: mergeSorted(
      pages.map((page) => page.items),
      compare,
      end,
    ).slice(window.offset),
  };
}
