import type { Bindings, Db } from "../env";
import { dataDb, dataDbs } from "../services/shards";

/**
 * The work of a queue's batch by the data `Db` that holds it: an item naming its organization goes to that
 * organization's, one sent before messages named it goes to every data `Db` (where its rows are not, it finds none).
 */
export async function byDataDb<T>(
  env: Bindings,
  items: T[],
  organizationOf: (item: T) => string | null | undefined,
): Promise<Map<Db, T[]>> {
  const groups = new Map<Db, T[]>();
  const add = (db: Db, item: T) => {
    const group = groups.get(db);
    if (group) group.push(item);
    else groups.set(db, [item]);
  };
  const dbOf = new Map<string, Promise<Db>>();
  for (const item of items) {
    const organizationId = organizationOf(item);
    if (!organizationId) {
      for (const db of dataDbs(env)) add(db, item);
      continue;
    }
    if (!dbOf.has(organizationId)) dbOf.set(organizationId, dataDb(env, organizationId));
    add(await dbOf.get(organizationId)!, item);
  }
  return groups;
}
