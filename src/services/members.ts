import { and, asc, count, eq, exists, inArray, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../env";
import { fieldError } from "../lib/errors";
import { isUuid } from "../lib/ids";
import { contains, likePattern } from "../lib/sql";
import { chatbotGroups, groupMembers, groups, inboxes, members, users } from "../db/schema";

export type MemberRow = typeof members.$inferSelect;
export interface MemberView {
  member: MemberRow;
  user: { id: string; name: string; email: string; avatar: string | null };
  groups: { id: string; name: string }[];
}

export interface MemberFilters {
  /** Name or e-mail contains (case-insensitive). */
  query?: string;
  /** Member of this group. */
  group?: string;
  ids?: string[];
  /** Can reach this inbox's assistant: owners, and members of groups linked to the assistant. */
  inbox?: string;
  /** Every word matches the name, the e-mail or a metadata value. */
  search?: string;
}

/** A metadata value as text; JSON booleans read as `true` / `false` rather than 1 / 0. */
const metadataContains = (term: string) =>
  sql`EXISTS (SELECT 1 FROM json_each(${members.metadata}) AS m
    WHERE (CASE WHEN m.type IN ('true', 'false') THEN m.type ELSE CAST(m.value AS TEXT) END) LIKE ${likePattern(term)} ESCAPE '\\')`;

function inboxAccess(db: Db, organizationId: string, inboxId: string): SQL {
  const theInbox = and(eq(inboxes.id, inboxId), eq(inboxes.organizationId, organizationId));
  const viaGroups = db
    .select({ id: groupMembers.memberId })
    .from(groupMembers)
    .innerJoin(chatbotGroups, eq(chatbotGroups.groupId, groupMembers.groupId))
    .innerJoin(inboxes, eq(inboxes.chatbotId, chatbotGroups.chatbotId))
    .where(theInbox);
  return or(
    and(eq(members.isOwner, true), exists(db.select({ id: inboxes.id }).from(inboxes).where(theInbox))),
    inArray(members.id, viaGroups),
  )!;
}

/** Each word binds three parameters; D1 allows 100 per statement. */
export const MAX_SEARCH_TERMS = 10;

function memberConditions(db: Db, organizationId: string, f: MemberFilters): SQL {
  const where: SQL[] = [eq(members.organizationId, organizationId)];
  if (f.query) where.push(or(contains(users.name, f.query), contains(users.email, f.query))!);
  if (f.group)
    where.push(
      inArray(
        members.id,
        db.select({ id: groupMembers.memberId }).from(groupMembers).where(eq(groupMembers.groupId, f.group)),
      ),
    );
  if (f.ids) where.push(inArray(members.id, f.ids));
  if (f.inbox) where.push(inboxAccess(db, organizationId, f.inbox));
  for (const term of f.search?.split(/\s+/).filter(Boolean).slice(0, MAX_SEARCH_TERMS) ?? []) {
    where.push(or(contains(users.name, term), contains(users.email, term), metadataContains(term))!);
  }
  return and(...where)!;
}

// D1 binds at most 100 parameters per statement: larger sets read the organization's memberships.
export const MAX_IDS_PER_QUERY = 90;

/** Filters as requested, checked: `ids` arrives as free text, each must be a uuid and their number is bounded (400). */
export function memberFilters(q: MemberFilters): MemberFilters {
  if (q.ids && q.ids.length > MAX_IDS_PER_QUERY) throw fieldError("ids", `At most ${MAX_IDS_PER_QUERY} ids.`);
  if (q.ids?.some((id) => !isUuid(id))) throw fieldError("ids", "Must be comma-separated UUIDs.");
  return { query: q.query || undefined, group: q.group, ids: q.ids, inbox: q.inbox, search: q.search || undefined };
}

async function withGroups(db: Db, organizationId: string, rows: Omit<MemberView, "groups">[]): Promise<MemberView[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.member.id);
  const links = await db
    .select({ memberId: groupMembers.memberId, id: groups.id, name: groups.name })
    .from(groupMembers)
    .innerJoin(groups, eq(groups.id, groupMembers.groupId))
    .where(
      and(
        eq(groups.organizationId, organizationId),
        ids.length <= MAX_IDS_PER_QUERY ? inArray(groupMembers.memberId, ids) : undefined,
      ),
    )
    .orderBy(asc(groups.name), asc(groups.id));
  const byMember = new Map<string, { id: string; name: string }[]>();
  for (const { memberId, id, name } of links) {
    const list = byMember.get(memberId) ?? [];
    list.push({ id, name });
    byMember.set(memberId, list);
  }
  return rows.map((r) => ({ ...r, groups: byMember.get(r.member.id) ?? [] }));
}

const selection = {
  member: members,
  user: { id: users.id, name: users.name, email: users.email, avatar: users.avatar },
};

/** Members of an organization matching `filters`, oldest first, with their users and groups. */
export async function listMembers(
  db: Db,
  organizationId: string,
  filters: MemberFilters = {},
  page?: { limit: number; offset: number },
) {
  const where = memberConditions(db, organizationId, filters);
  const query = db
    .select(selection)
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .where(where)
    .orderBy(asc(members.createdAt), asc(members.id));
  const rows = page ? await query.limit(page.limit).offset(page.offset) : await query;
  return withGroups(db, organizationId, rows);
}

export async function countMembers(db: Db, organizationId: string, filters: MemberFilters = {}) {
  const [{ n }] = await db
    .select({ n: count() })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .where(memberConditions(db, organizationId, filters));
  return n;
}

export async function findMember(db: Db, organizationId: string, memberId: string): Promise<MemberView | null> {
  const [view] = await listMembers(db, organizationId, { ids: [memberId] });
  return view ?? null;
}

export type MetadataType = "string" | "number" | "boolean" | "array" | "object";
const JSON_TYPES: Record<string, MetadataType | undefined> = {
  text: "string",
  integer: "number",
  real: "number",
  true: "boolean",
  false: "boolean",
  array: "array",
  object: "object",
};

/** `employeeId` / `cost_center` -> `Employee id` / `Cost center`. */
const labelOf = (key: string) => {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .trim()
    .toLowerCase();
  return words ? words[0].toUpperCase() + words.slice(1) : key;
};

/**
 * The custom metadata keys in use among an organization's members, in order of first appearance
 * (oldest member first). A key's type is the JSON type of its values; values of several types,
 * or only nulls, make it "string", the type any spreadsheet cell can hold.
 */
export async function metadataFields(db: Db, organizationId: string) {
  const rows = await db.all<{ key: string; type: string }>(sql`
    SELECT m.key AS key, m.type AS type FROM ${members}, json_each(${members.metadata}) AS m
    WHERE ${members.organizationId} = ${organizationId} AND json_type(${members.metadata}) = 'object'
    ORDER BY ${members.createdAt}, ${members.id}, m.id`);
  const types = new Map<string, Set<MetadataType>>();
  for (const { key, type } of rows) {
    const set = types.get(key) ?? new Set();
    const mapped = JSON_TYPES[type];
    if (mapped) set.add(mapped);
    types.set(key, set);
  }
  return [...types].map(([key, set]) => ({
    key,
    label: labelOf(key),
    type: set.size === 1 ? [...set][0] : ("string" as MetadataType),
  }));
}

/** Ids among `groupIds` that are groups of this organization. */
export async function organizationGroupIds(db: Db, organizationId: string, groupIds: string[]) {
  if (!groupIds.length) return new Set<string>();
  const rows = await db
    .select({ id: groups.id })
    .from(groups)
    .where(and(eq(groups.organizationId, organizationId), inArray(groups.id, groupIds)));
  return new Set(rows.map((r) => r.id));
}

/** Replaces a member's group memberships in one atomic batch. */
export async function replaceMemberGroups(db: Db, memberId: string, groupIds: string[]) {
  const remove = db.delete(groupMembers).where(eq(groupMembers.memberId, memberId));
  if (!groupIds.length) return void (await remove);
  // Four parameters a row, and D1 binds at most 100 per statement.
  const inserts = [];
  for (let i = 0; i < groupIds.length; i += 20) {
    inserts.push(db.insert(groupMembers).values(groupIds.slice(i, i + 20).map((groupId) => ({ groupId, memberId }))));
  }
  await db.batch([remove, ...inserts]);
}
