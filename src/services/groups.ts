import { and, asc, count, eq, inArray, or, sql } from "drizzle-orm";
import type { Db } from "../env";
import { groupMembers, groupPermissions, groups, inboxes, members, users } from "../db/schema";
import { conflict, fieldError, forbidden, isUniqueViolation } from "../lib/errors";
import { uuidv7 } from "../lib/ids";
import { type PageWindow, mapPage, paginate } from "../db/paginate";
import { chunk, contains } from "../lib/sql";
import type { OrgAccess } from "./access";
import { addGroupLinks, requireKnownIds } from "./links";
import { groupMemberRecord } from "./records/group-members";
import { type GroupInput, type GroupCreateInput, type GroupRecord, groupRecordOf } from "./records/groups";
import { findById } from "../db/find";
import { writePurges } from "./purges";

type GroupRow = typeof groups.$inferSelect;

/** The group with this id in this organization; any other group does not exist for the caller. */
export async function findGroup(db: Db, organizationId: string, id: string): Promise<GroupRow> {
  return findById(id, "Group not found.", () =>
    db
      .select()
      .from(groups)
      .where(and(eq(groups.id, id), eq(groups.organizationId, organizationId))),
  );
}

/** The optional `organization` of a group body must be the organization in the path. */
export function checkOrganizationField(body: Pick<GroupInput, "organization">, organizationId: string) {
  if (body.organization && body.organization !== organizationId) {
    throw fieldError("organization", "Must be the organization in the path.");
  }
}

/** Group records: permissions from the catalogue (in catalogue order) and the member count. */
export async function groupRecords(db: Db, rows: GroupRow[]): Promise<GroupRecord[]> {
  const parts = chunk(
    rows.map((g) => g.id),
    90,
  );
  const [perms, counts] = await Promise.all([
    Promise.all(
      parts.map((ids) => db.select().from(groupPermissions).where(inArray(groupPermissions.groupId, ids))),
    ).then((r) => r.flat()),
    Promise.all(
      parts.map((ids) =>
        db
          .select({ groupId: groupMembers.groupId, n: count() })
          .from(groupMembers)
          .where(inArray(groupMembers.groupId, ids))
          .groupBy(groupMembers.groupId),
      ),
    ).then((r) => r.flat()),
  ]);
  return rows.map((g) =>
    groupRecordOf(
      g,
      new Set(perms.filter((p) => p.groupId === g.id).map((p) => p.permissionId)),
      counts.find((c) => c.groupId === g.id)?.n ?? 0,
    ),
  );
}

/** A page of the organization's groups, by name (case-insensitive), optionally whose name contains `query`. */
export async function listGroups(db: Db, organizationId: string, query: string | undefined, window: PageWindow) {
  const where = and(eq(groups.organizationId, organizationId), query ? contains(groups.name, query) : undefined);
  const page = await paginate(window, db.select({ n: count() }).from(groups).where(where), ({ limit, offset }) =>
    db
      .select()
      .from(groups)
      .where(where)
      .orderBy(asc(sql`${groups.name} collate nocase`), asc(groups.id))
      .limit(limit)
      .offset(offset),
  );
  return { count: page.count, items: await groupRecords(db, page.items) };
}

/**
 * Deletes a group of the organization (404 for any other); its members lose its permissions at once, conversations
 * their team (its purge, services/purges.ts, in the organization's data plane `parts`), and inboxes assigning to it
 * their `assignment.teamId`, in the batch that deletes it: the setting has no key to clear it, and a round-robin
 * inbox naming a team no longer there would leave every handoff waiting while agents are online. Without a team it
 * assigns to every member who may serve (docs/decisions.md, "Assignment").
 *
 * Returns the ids of the members the group had when it went, read by the batch that deletes it: a member added
 * after an earlier read would lose the group's permissions unseen, keeping conversations they may no longer serve.
 */
export async function deleteGroup(db: Db, parts: Db[], organizationId: string, id: string): Promise<string[]> {
  const group = await findGroup(db, organizationId, id);
  const purge = [{ organizationId, kind: "group" as const, id: group.id }];
  await writePurges(parts, purge);
  // One transaction: no member joins between this read and the delete that takes their membership along.
  const [left] = await db.batch([
    db.select({ id: groupMembers.memberId }).from(groupMembers).where(eq(groupMembers.groupId, group.id)),
    db
      .update(inboxes)
      .set({ assignment: sql`json_set(${inboxes.assignment}, '$.teamId', null)`, updatedAt: Date.now() })
      .where(
        and(
          eq(inboxes.organizationId, organizationId),
          sql`json_extract(${inboxes.assignment}, '$.teamId') = ${group.id}`,
        ),
      ),
    db.delete(groups).where(and(eq(groups.id, group.id), eq(groups.organizationId, organizationId))),
  ]);
  // Again once the group is gone: an assignment that found it after the housekeeping ran the first wrote after it.
  await writePurges(parts, purge);
  return left.map((m) => m.id);
}

export const groupRecord = async (db: Db, row: GroupRow) => (await groupRecords(db, [row]))[0];

/** 0 or 1 insert statements, for a batch (an empty multi-row insert is not valid SQL). */
const insertPermissions = (db: Db, groupId: string, permissionIds: string[]) =>
  permissionIds.length
    ? [db.insert(groupPermissions).values(permissionIds.map((permissionId) => ({ groupId, permissionId })))]
    : [];

async function runUnique<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict("A group with this name already exists in the organization.");
    throw err;
  }
}

/** Creates the group with its permissions in one batch; a duplicate name is a 409. */
export async function createGroup(db: Db, organizationId: string, input: Omit<GroupCreateInput, "organization">) {
  const id = uuidv7();
  const insertGroup = db.insert(groups).values({ id, organizationId, name: input.name }).returning();
  const [[row]] = await runUnique(() => db.batch([insertGroup, ...insertPermissions(db, id, input.permissions)]));
  return row;
}

/** Renames and/or replaces the permissions of a group in one batch (PUT and PATCH). */
export async function updateGroup(db: Db, group: GroupRow, input: Omit<GroupInput, "organization">) {
  const update = db
    .update(groups)
    .set({ updatedAt: Date.now(), ...(input.name === undefined ? {} : { name: input.name }) })
    .where(eq(groups.id, group.id))
    .returning();
  const replace = input.permissions
    ? [
        db.delete(groupPermissions).where(eq(groupPermissions.groupId, group.id)),
        ...insertPermissions(db, group.id, input.permissions),
      ]
    : [];
  const [[row]] = await runUnique(() => db.batch([update, ...replace]));
  return row;
}

/** Columns of a group-member record: the membership, its organization member and that member's user. */
const groupMemberColumns = {
  id: groupMembers.id,
  groupId: groupMembers.groupId,
  memberId: members.id,
  userId: users.id,
  userName: users.name,
  userEmail: users.email,
  createdAt: groupMembers.createdAt,
};
export type GroupMemberRow = Awaited<ReturnType<typeof selectGroupMembers>>[number];

/** Group members joined with their users; `where` narrows it (always within one group). */
const selectGroupMembers = (db: Db) =>
  db
    .select(groupMemberColumns)
    .from(groupMembers)
    .innerJoin(members, eq(members.id, groupMembers.memberId))
    .innerJoin(users, eq(users.id, members.userId));

const countGroupMembers = (db: Db) =>
  db
    .select({ n: count() })
    .from(groupMembers)
    .innerJoin(members, eq(members.id, groupMembers.memberId))
    .innerJoin(users, eq(users.id, members.userId));

/** Filter of the group-member list: the member's name or e-mail contains `query`. */
const groupMemberFilter = (groupId: string, query?: string) =>
  and(
    eq(groupMembers.groupId, groupId),
    query ? or(contains(users.name, query), contains(users.email, query)) : undefined,
  );

/** A page of one group's members, oldest membership first, optionally by name or e-mail. */
export async function listGroupMembers(db: Db, groupId: string, query: string | undefined, window: PageWindow) {
  const where = groupMemberFilter(groupId, query);
  const page = await paginate(window, countGroupMembers(db).where(where), ({ limit, offset }) =>
    selectGroupMembers(db)
      .where(where)
      .orderBy(asc(groupMembers.createdAt), asc(groupMembers.id))
      .limit(limit)
      .offset(offset),
  );
  return mapPage(page, groupMemberRecord);
}

export async function findGroupMember(db: Db, groupId: string, id: string) {
  return findById(id, "Group member not found.", () =>
    selectGroupMembers(db).where(and(eq(groupMembers.id, id), eq(groupMembers.groupId, groupId))),
  );
}

/** Takes a member out of a group; they stay in the organization and lose the group's permissions. Returns their
 * member id. */
export async function removeGroupMember(db: Db, groupId: string, id: string): Promise<string> {
  const membership = await findGroupMember(db, groupId, id);
  await db.delete(groupMembers).where(eq(groupMembers.id, membership.id));
  return membership.memberId;
}

/** The ids of a group's members (whose permissions a change to the group changes). */
export async function groupMemberIds(db: Db, groupId: string): Promise<string[]> {
  const rows = await db
    .select({ id: groupMembers.memberId })
    .from(groupMembers)
    .where(eq(groupMembers.groupId, groupId));
  return rows.map((r) => r.id);
}

/**
 * Adds organization members to a group. Every id must be a member of the group's organization
 * (else 400 and nothing is written); members already in the group are skipped.
 * Returns the memberships it created, in request order.
 */
export async function addGroupMembers(db: Db, group: GroupRow, memberIds: string[]) {
  const created = await addGroupLinks(db, memberIds, {
    part: 90,
    known: (ids) =>
      db
        .select({ id: members.id })
        .from(members)
        .where(and(eq(members.organizationId, group.organizationId), inArray(members.id, ids))),
    present: (ids) =>
      db
        .select({ id: groupMembers.memberId })
        .from(groupMembers)
        .where(and(eq(groupMembers.groupId, group.id), inArray(groupMembers.memberId, ids))),
    field: "members",
    lead: "Not members of this organization",
    link: (memberId, now) => ({ id: uuidv7(), groupId: group.id, memberId, createdAt: now }),
    insert: (rows) => db.insert(groupMembers).values(rows).onConflictDoNothing(),
    read: (ids) => selectGroupMembers(db).where(inArray(groupMembers.id, ids)),
  });
  return created.map(groupMemberRecord);
}

export async function groupPermissionIds(db: Db, groupId: string): Promise<string[]> {
  const rows = await db
    .select({ id: groupPermissions.permissionId })
    .from(groupPermissions)
    .where(eq(groupPermissions.groupId, groupId));
  return rows.map((r) => r.id);
}

/** 400 on `groups` unless each of `ids` is a group of the caller's organization. */
export const requireOrganizationGroups = (db: Db, access: OrgAccess, ids: string[]) =>
  requireKnownIds(
    ids,
    (part) =>
      db
        .select({ id: groups.id })
        .from(groups)
        .where(and(eq(groups.organizationId, access.organizationId), inArray(groups.id, part))),
    "groups",
    "Not groups of this organization",
  );

/**
 * The `groups` a body gives a resource that members see through groups (tools, skills, SQL
 * databases): groups of the organization (400 naming others); a non-owner must give it to at least
 * one of their own groups (spec: Authentication 2) and may only add groups they belong to (403).
 * Returns the ids, or undefined when the body leaves the groups as they are.
 */
export async function checkGroupAssignment(
  db: Db,
  access: OrgAccess,
  wanted: string[] | undefined,
  creating: boolean,
  current: string[],
  noun: string,
): Promise<string[] | undefined> {
  if (wanted === undefined) {
    if (creating && !access.isOwner) throw fieldError("groups", "Pick at least one of your own groups.");
    return undefined;
  }
  const ids = [...new Set(wanted)];
  await requireOrganizationGroups(db, access, ids);
  if (!access.isOwner) {
    if (!ids.some((id) => access.groupIds.includes(id)))
      throw fieldError("groups", "Pick at least one of your own groups.");
    if (ids.some((id) => !current.includes(id) && !access.groupIds.includes(id)))
      throw forbidden(`You can only give ${noun} to groups you belong to.`);
  }
  return ids;
}
