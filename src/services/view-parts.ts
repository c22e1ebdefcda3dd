// Parts that several resources' views read the same way for a page of rows at once: who created
// each row, the groups each is given to, and the named rows a link table ties each to.
import { and, asc, eq, inArray, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "../env";
import { groups, users } from "../db/schema";
import { inChunks } from "../lib/sql";
import type { OrgAccess } from "./access";
import type { GroupLinks } from "./links";

export type IdName = { id: string; name: string };

/** Reads the creators of `rows` at once; the function returns a row's `createdBy` (null without a creator). */
export async function creatorsOf(
  db: Db,
  rows: { createdById: string | null }[],
): Promise<(row: { createdById: string | null }) => IdName | null> {
  const creators = await inChunks(
    rows.map((r) => r.createdById).filter((x): x is string => !!x),
    (part) => db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, part)),
  );
  const names = new Map(creators.map((u) => [u.id, u.name]));
  return (row) => (row.createdById ? { id: row.createdById, name: names.get(row.createdById) ?? "" } : null);
}

/**
 * Reads the groups each of `ownerIds` is given to, by name; the function returns one owner's.
 * Groups of other organizations than the caller's never show.
 */
export async function linkedGroups(
  db: Db,
  access: OrgAccess,
  link: GroupLinks,
  ownerIds: string[],
): Promise<(ownerId: string) => IdName[]> {
  const rows = await inChunks(ownerIds, (part) =>
    db
      .select({ ownerId: link.owner, id: groups.id, name: groups.name, organizationId: groups.organizationId })
      .from(link.table)
      .innerJoin(groups, eq(groups.id, link.group))
      .where(inArray(link.owner, part))
      .orderBy(asc(groups.name), asc(groups.id)),
  );
  return (ownerId) =>
    rows
      .filter((l) => l.ownerId === ownerId && l.organizationId === access.organizationId)
      .map(({ id, name }) => ({ id, name }));
}

/**
 * A link table read from its owners' side: `table` ties `owner` ids to rows of `target` (joined `on`), whose `id`
 * and `name` a view shows, in `orderBy`.
 */
export interface NamedLinks {
  table: SQLiteTable;
  owner: SQLiteColumn;
  target: SQLiteTable;
  on: SQL;
  id: SQLiteColumn;
  name: SQLiteColumn;
  orderBy: SQL[];
}

/** A resource's group links read as named links: the groups, by name unless `orderBy` says otherwise. */
export const groupNameLinks = (link: GroupLinks, orderBy: SQL[] = [asc(groups.name)]): NamedLinks => ({
  table: link.table,
  owner: link.owner,
  target: groups,
  on: eq(groups.id, link.group),
  id: groups.id,
  name: groups.name,
  orderBy,
});

/**
 * Reads the rows each of `ownerIds` is linked to (only those matching `where`, when given); the function returns
 * one owner's, in the link's order. Every view listing an owner's assistants, groups, tools... reads them so.
 */
export async function linkedNames(
  db: Db,
  ownerIds: string[],
  link: NamedLinks,
  where?: SQL,
): Promise<(ownerId: string) => IdName[]> {
  const rows = (await inChunks(ownerIds, (part) =>
    db
      .select({ ownerId: link.owner, id: link.id, name: link.name })
      .from(link.table)
      .innerJoin(link.target, link.on)
      .where(where ? and(inArray(link.owner, part), where) : inArray(link.owner, part))
      .orderBy(...link.orderBy),
  )) as (IdName & { ownerId: string })[];
  return (ownerId) => rows.filter((l) => l.ownerId === ownerId).map(({ id, name }) => ({ id, name }));
}
