// Link tables: rows that give a resource to groups, or tie it to assistants, tools or skills. Every
// resource that has them reads and writes them the same way.
import { and, eq, inArray, isNull, or, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { AnySQLiteColumn, SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "../env";
import { groupMembers } from "../db/schema";
import { type ApiError, fieldError, isUniqueViolation } from "../lib/errors";
import { isUuid } from "../lib/ids";
import { chunk, inChunks } from "../lib/sql";
import type { Permission } from "./permissions";
import { can, type OrgAccess } from "./access";

/**
 * The ids of a body's list of links (`groups: [{id}]`, `tools`, ...): undefined when the body leaves the list out (the
 * links stay as they are), none when it is null (they all go).
 */
export const referencedIds = (refs: { id: string }[] | null | undefined) =>
  refs === undefined ? undefined : (refs ?? []).map((r) => r.id);

/** A link table, its column naming the resource that owns the link, and the row of one link. */
export interface LinkTable<T extends SQLiteTable = SQLiteTable> {
  table: T;
  owner: SQLiteColumn;
  /** The column naming what the resource is linked to. */
  linked: SQLiteColumn;
  /** The row linking the resource `ownerId` to `linkedId`. */
  row(ownerId: string, linkedId: string): T["$inferInsert"];
}

/** A table linking a resource (`owner`) to groups (`group`). */
export interface GroupLinks<T extends SQLiteTable = SQLiteTable> extends LinkTable<T> {
  group: SQLiteColumn;
}

type LinkKey<T extends SQLiteTable> = keyof T["$inferInsert"] & keyof T & string;

/** The links in `table` from the resource its column `ownerKey` names to the one `linkedKey` names. */
export const linksOf = <T extends SQLiteTable, O extends LinkKey<T>, L extends LinkKey<T>>(
  table: T,
  ownerKey: O,
  linkedKey: L,
): LinkTable<T> => ({
  table,
  owner: table[ownerKey] as SQLiteColumn,
  linked: table[linkedKey] as SQLiteColumn,
  row: (ownerId, linkedId) => ({ [ownerKey]: ownerId, [linkedKey]: linkedId }) as T["$inferInsert"],
});

/** The group links in `table`, whose column `ownerKey` names the resource (the group's is `groupId`). */
export const groupLinksOf = <T extends SQLiteTable & { groupId: SQLiteColumn }, O extends LinkKey<T>>(
  table: T,
  ownerKey: O,
): GroupLinks<T> => ({ ...linksOf(table, ownerKey, "groupId" as LinkKey<T>), group: table.groupId });

/** The ids of the groups the resource `ownerId` is given to. */
export async function groupIdsOf(db: Db, link: GroupLinks, ownerId: string): Promise<string[]> {
  const linked = await db.select({ id: link.group }).from(link.table).where(eq(link.owner, ownerId));
  return linked.map((g) => g.id as string);
}

/** The resources (`id`, the resource's own id column) given to one of the member's groups. */
export const reachableThroughGroups = (id: SQLiteColumn, link: GroupLinks, memberId: string): SQL =>
  sql`${id} in (select ${link.owner} from ${link.table}
    inner join ${groupMembers} on ${groupMembers.groupId} = ${link.group}
    where ${groupMembers.memberId} = ${memberId})`;

/**
 * What the caller sees of a resource that may be global (no organization: tools, skills), CONTRACT section 4: every
 * global one and, in the organization of `access`, all of them for owners; other members need `permission` and see
 * one only through one of their groups.
 */
export function globalOrReachableCondition(
  access: OrgAccess,
  resource: { id: SQLiteColumn; organizationId: SQLiteColumn },
  link: GroupLinks,
  permission: Permission,
): SQL {
  const global = isNull(resource.organizationId);
  const inOrganization = eq(resource.organizationId, access.organizationId);
  if (access.isOwner) return or(global, inOrganization)!;
  if (!can(access, permission)) return sql`0`;
  return or(global, and(inOrganization, reachableThroughGroups(resource.id, link, access.memberId)))!;
}

/**
 * Statements setting the links of the resource `ownerId` to `linkedIds` (none when they are not given): with
 * `replace`, its links (the rows whose `owner` is `ownerId`) are deleted first, all of them (`true`) or those to the
 * ids a query selects (the ones the caller can see: links to the others stay; docs/decisions.md, "Links to what the
 * caller cannot see"). The rows are inserted 40 at a time (D1 binds 100 parameters; link rows have two columns), and
 * a link that is already there is kept.
 */
export function linkStatements<T extends SQLiteTable>(
  db: Db,
  link: LinkTable<T>,
  ownerId: string,
  linkedIds: string[] | undefined,
  replace: boolean | SQLWrapper,
): BatchItem<"sqlite">[] {
  if (!linkedIds) return [];
  const rows = linkedIds.map((id) => link.row(ownerId, id));
  const within = typeof replace === "boolean" ? undefined : inArray(link.linked, replace);
  return [
    ...(replace ? [db.delete(link.table).where(and(eq(link.owner, ownerId), within))] : []),
    ...chunk(rows, 40).map((part) => db.insert(link.table).values(part).onConflictDoNothing()),
  ];
}

/**
 * Writes a resource's row (`write`, a statement returning it) and its `links` in one batch, and returns what `write`
 * returned. A unique violation (its name is taken) is thrown as `taken()`; any other error as it came.
 */
export async function writeWithLinks<W extends BatchItem<"sqlite">>(
  db: Db,
  write: W,
  links: BatchItem<"sqlite">[],
  taken: () => ApiError,
): Promise<W["_"]["result"]> {
  try {
    const [written] = await db.batch([write, ...links]);
    return written;
  } catch (err) {
    throw isUniqueViolation(err) ? taken() : err;
  }
}

/**
 * Checks the ids a body links a resource to: `find` reads (in parts D1 can bind) those of `ids` the caller may link;
 * any other is a 400 on `field`, naming the first five after `lead` ("Unknown tool: a, b.").
 */
export async function requireKnownIds(
  ids: string[],
  find: (part: string[]) => Promise<{ id: string }[]>,
  field: string,
  lead: string,
): Promise<void> {
  const known = new Set((await inChunks(ids, find)).map((row) => row.id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length) throw fieldError(field, `${lead}: ${unknown.slice(0, 5).join(", ")}.`);
}

/** `requireKnownIds` over the rows of `table` (by their `id`) that `condition` lets the caller link. */
export const requireKnownRows = (
  db: Db,
  table: SQLiteTable & { id: AnySQLiteColumn<{ data: string; notNull: true }> },
  ids: string[],
  condition: SQL | undefined,
  field: string,
  lead: string,
) =>
  requireKnownIds(
    ids,
    (part) =>
      db
        .select({ id: table.id })
        .from(table)
        .where(and(inArray(table.id, part), condition)),
    field,
    lead,
  );

/**
 * Links resources to a group in bulk (its members, its assistants). Each of `ids` must be one `known` reads, else a
 * 400 on `field` naming the first five after `lead` and nothing is written; those the group has already (`present`
 * reads them) are skipped. Both read `part` ids a query (what their statements can bind). `link` makes a new link's
 * row, `insert` writes 20 of them a statement, `read` reads the links back by their ids. Returns the links it
 * created, in request order.
 */
export async function addGroupLinks<Link extends { id: string }, Read extends { id: string }>(
  db: Db,
  ids: string[],
  how: {
    part: number;
    known: (part: string[]) => Promise<{ id: string }[]>;
    present: (part: string[]) => Promise<{ id: string }[]>;
    field: string;
    lead: string;
    link: (id: string, now: number) => Link;
    insert: (rows: Link[]) => BatchItem<"sqlite">;
    read: (linkIds: string[]) => Promise<Read[]>;
  },
): Promise<Read[]> {
  const wanted = [...new Set(ids)];
  const valid = wanted.filter(isUuid);
  const [known, present] = await Promise.all([
    Promise.all(chunk(valid, how.part).map(how.known)),
    Promise.all(chunk(valid, how.part).map(how.present)),
  ]);
  const knownIds = new Set(known.flat().map((r) => r.id));
  const unknown = wanted.filter((id) => !knownIds.has(id));
  if (unknown.length)
    throw fieldError(how.field, `${how.lead}: ${unknown.slice(0, 5).join(", ")}${unknown.length > 5 ? ", ..." : ""}.`);
  const presentIds = new Set(present.flat().map((r) => r.id));
  const now = Date.now();
  const rows = wanted.filter((id) => !presentIds.has(id)).map((id) => how.link(id, now));
  const [first, ...rest] = chunk(rows, 20).map(how.insert);
  if (!first) return [];
  await db.batch([first, ...rest]);
  const created = await Promise.all(
    chunk(
      rows.map((r) => r.id),
      90,
    ).map(how.read),
  );
  const byId = new Map(created.flat().map((r) => [r.id, r]));
  return rows.flatMap((r) => (byId.has(r.id) ? [byId.get(r.id)!] : []));
}
