import { and, asc, count, eq, exists, inArray, isNull, notExists, or, sql, type SQL } from "drizzle-orm";
import type { Bindings, Db } from "../env";
import { badRequest, conflict, fieldError, isUniqueViolation, notFound } from "../lib/errors";
import { isUuid, uuidv7 } from "../lib/ids";
import { contains } from "../lib/sql";
import { chatbotGroups, chatbots, groupMembers, groups, inboxes, members, users } from "../db/schema";
import { type PageWindow, paginate } from "../db/paginate";
import { memberRecord } from "./records/members";
import type { ChangeActor } from "./conversations";
import { afterRelease, releaseAssigned } from "./assignment/release";
import { deleteChatbot } from "./chatbots/store";

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
    WHERE ${contains(sql`CASE WHEN m.type IN ('true', 'false') THEN m.type ELSE CAST(m.value AS TEXT) END`, term)})`;

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
export async function listMembers(db: Db, organizationId: string, filters: MemberFilters = {}, page?: PageWindow) {
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

const countMembers = (db: Db, organizationId: string, filters: MemberFilters) =>
  db
    .select({ n: count() })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .where(memberConditions(db, organizationId, filters));

/** A page of the members matching `filters` as records, oldest first. */
export async function listMemberPage(db: Db, organizationId: string, filters: MemberFilters, window: PageWindow) {
  const page = await paginate(window, countMembers(db, organizationId, filters), (w) =>
    listMembers(db, organizationId, filters, w),
  );
  return { count: page.count, items: page.items.map(memberRecord) };
}

/** Every member matching `filters` as records, oldest first (the list with `pagination=false`). */
export const memberRecords = async (db: Db, organizationId: string, filters: MemberFilters) =>
  (await listMembers(db, organizationId, filters)).map(memberRecord);

export async function findMember(db: Db, organizationId: string, memberId: string): Promise<MemberView | null> {
  const [view] = await listMembers(db, organizationId, { ids: [memberId] });
  return view ?? null;
}

/** The member of this organization with its user and groups; 404 for any other. */
export async function getMember(db: Db, organizationId: string, memberId: string): Promise<MemberView> {
  const view = await findMember(db, organizationId, memberId);
  if (!view) throw notFound();
  return view;
}

/** Adds the registered user with this e-mail address to the organization, in no group (400 unknown, 409 already in). */
export async function addMember(db: Db, organizationId: string, email: string) {
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, email.toLowerCase()));
  if (!user) throw fieldError("email", "No registered user has this e-mail address.");
  const id = uuidv7();
  try {
    await db.insert(members).values({ id, organizationId, userId: user.id });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict("This user is already a member of the organization.");
    throw err;
  }
  return memberRecord(await getMember(db, organizationId, id));
}

/** The membership a removal names: its id, its user, whether it is the owner's (404 when not of this organization). */
export async function memberToRemove(db: Db, organizationId: string, id: string) {
  const [target] = await db
    .select({ id: members.id, userId: members.userId, isOwner: members.isOwner })
    .from(members)
    .where(and(eq(members.id, id), eq(members.organizationId, organizationId)));
  if (!target) throw notFound();
  return target;
}

/** The personal assistants `userId` made that the organization hosts: their default inbox is one of its inboxes. */
const hostedPersonalChatbots = (db: Db, organizationId: string, userId: string) =>
  db
    .select({ id: chatbots.id, organizationId: chatbots.organizationId })
    .from(chatbots)
    .innerJoin(inboxes, and(eq(inboxes.chatbotId, chatbots.id), eq(inboxes.isDefault, true)))
    .where(
      and(
        isNull(chatbots.organizationId),
        eq(chatbots.createdById, userId),
        eq(inboxes.organizationId, organizationId),
      ),
    );

/**
 * Personal assistants whose creator is no longer a member of the organization hosting them, deleted as a removal
 * deletes them (`removeMember`), `limit` at a time: removals made before it did so left them there, counted against
 * the plan, and nobody could delete them. Run by the housekeeping cron; answers how many went.
 */
export async function deleteLeftPersonalChatbots(env: Bindings, db: Db, limit = 20): Promise<number> {
  const creatorStays = db
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.organizationId, inboxes.organizationId), eq(members.userId, chatbots.createdById)));
  const left = await db
    .select({ id: chatbots.id, organizationId: chatbots.organizationId })
    .from(chatbots)
    .innerJoin(inboxes, and(eq(inboxes.chatbotId, chatbots.id), eq(inboxes.isDefault, true)))
    .where(and(isNull(chatbots.organizationId), notExists(creatorStays)))
    .limit(limit);
  for (const chatbot of left) await deleteChatbot(env, db, chatbot);
  return left.length;
}

/**
 * Removes a member from the organization; the owner cannot be removed (400). The conversations they were assigned are
 * released first (assignment/release.ts; `actor`: who removes them), while they are offline, so round-robin gives them
 * none meanwhile; once they are gone, those still waiting go to the agents who remain (in `background`).
 * The personal assistants they made while acting here are deleted as an assistant's delete does (with their default
 * inbox and its conversations, purged): the organization hosts them (a plan place, its words, its data plane), yet
 * only their creator sees them, so once they left nobody could remove them. Before the membership, so a failure
 * leaves a removal that can be done again. Coming online meanwhile (their console, `availability/`) sets them online
 * again, and round-robin then gave them conversations, the released ones first: once the membership is gone nothing
 * can choose them, so what they hold then is released once more.
 */
export async function removeMember(
  env: Bindings,
  db: Db,
  organizationId: string,
  target: { id: string; userId: string; isOwner: boolean },
  actor: ChangeActor,
  background: { waitUntil(promise: Promise<unknown>): void },
) {
  if (target.isOwner) throw badRequest("The owner of the organization cannot be removed.");
  await db.update(members).set({ availability: "offline" }).where(eq(members.id, target.id));
  const released = await releaseAssigned(env, organizationId, target.userId, actor);
  for (const chatbot of await hostedPersonalChatbots(db, organizationId, target.userId))
    await deleteChatbot(env, db, chatbot);
  await db.delete(members).where(and(eq(members.id, target.id), eq(members.organizationId, organizationId)));
  try {
    released.push(...(await releaseAssigned(env, organizationId, target.userId, actor)));
  } finally {
    if (released.length) background.waitUntil(afterRelease(env, db, organizationId, released));
  }
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
