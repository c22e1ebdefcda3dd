import type { Bindings, Db } from "../env";
import { dataDb, dataDbs } from "../services/shards";
import { conversationDb, dataParts } from "../services/shards/parts";

/** `conversationOf` for work whose items name no conversation (a delivery by its id): each of the parts is asked. */
export const inEachPart = () => null;

/**
 * The work of a queue's batch by the data `Db` that holds it: an item naming its organization goes to that
 * organization's data plane, one sent before messages named it to every data `Db` (where its rows are not, it finds
 * none). With `conversationOf` the work is a conversation's: it goes to the part of the organization's data plane
 * holding the conversation (services/shards/parts.ts), or, when it names none, to each of its parts.
 */
export async function byDataDb<T>(
  env: Bindings,
  items: T[],
  organizationOf: (item: T) => string | null | undefined,
  conversationOf?: (item: T) => string | null | undefined,
): Promise<Map<Db, T[]>> {
  const groups = new Map<Db, T[]>();
  const add = (db: Db, item: T) => {
    const group = groups.get(db);
    if (group) group.push(item);
    else groups.set(db, [item]);
  };
  const dbOf = new Map<string, Promise<Db[]>>();
  const remembered = (key: string, read: () => Promise<Db[]>) => {
    if (!dbOf.has(key)) dbOf.set(key, read());
    return dbOf.get(key)!;
  };
  for (const item of items) {
    const organizationId = organizationOf(item);
    if (!organizationId) {
      for (const db of dataDbs(env)) add(db, item);
      continue;
    }
    const conversationId = conversationOf?.(item);
    const dbs = conversationId
      ? [await conversationDb(env, organizationId, conversationId)]
      : conversationOf
        ? await remembered(`parts:${organizationId}`, () => dataParts(env, organizationId))
        : await remembered(organizationId, async () => [await dataDb(env, organizationId)]);
    for (const db of dbs) add(db, item);
  }
  return groups;
}
