// The organization's counters over its data parts (docs/scale.md §5, "One organization over several shards", step 3):
// each part keeps the figures of the conversations it holds (usage_hourly and its kin, chatbot_words,
// organization_usage, the daily rollups with their own watermark), so a reader runs its statements on every part and
// adds the rows by their key. A set (the distinct contacts of an assistant, the active members) is unioned, never
// added: one contact may have talked in conversations of two parts. An organization with one part (all of them but
// a test's today) runs its statements once, as they are.
import type { Db } from "../../env";

/** `read` on every part at once; the answers in the parts' order (newest first, as `dataParts` gives them). */
export const onEachPart = <T>(parts: Db[], read: (data: Db) => Promise<T>): Promise<T[]> =>
  Promise.all(parts.map(read));

type Row = Record<string, unknown>;

/**
 * Every part's rows added by key (the fields named in `keys`): number fields added field by field (a null counts as
 * none), the others as the first row of the key has them. Keys keep the order they first appear in, parts in order.
 */
export function addByKey<R extends Row>(lists: R[][], keys: (keyof R & string)[]): R[] {
  if (lists.length === 1) return lists[0];
  const sums = new Map<string, Row>();
  for (const list of lists) {
    for (const row of list) {
      const key = JSON.stringify(keys.map((k) => row[k]));
      const sum = sums.get(key);
      if (!sum) {
        sums.set(key, { ...row });
        continue;
      }
      for (const [field, value] of Object.entries(row)) {
        if (keys.includes(field) || typeof value !== "number") continue;
        sum[field] = Number(sum[field] ?? 0) + value;
      }
    }
  }
  return [...sums.values()] as R[];
}

/**
 * How many distinct members each group has over every part's rows (`group` of a row: its group; `member`: the value
 * counted once), as `count(DISTINCT ...) GROUP BY` over the parts' rows together would count them.
 */
export function countDistinct<R, K>(lists: R[][], group: (row: R) => K, member: (row: R) => unknown): Map<K, number> {
  const sets = new Map<K, Set<unknown>>();
  for (const list of lists) {
    for (const row of list) {
      const k = group(row);
      const set = sets.get(k) ?? new Set();
      set.add(member(row));
      sets.set(k, set);
    }
  }
  return new Map([...sets].map(([k, set]) => [k, set.size]));
}
