import { and, asc, count, eq, inArray } from "drizzle-orm";
import type { Db } from "../env";
import { chatbotGroups, chatbots, type groups } from "../db/schema";
import { type PageWindow, mapPage, paginate } from "../db/paginate";
import { notFound } from "../lib/errors";
import { isUuid, uuidv7 } from "../lib/ids";
import { contains } from "../lib/sql";
import type { OrgAccess } from "./access";
import { visibleChatbotsCondition } from "./chatbots/visibility";
import { addGroupLinks } from "./links";
import { groupChatbotRecord } from "./records/group-chatbots";
/** The data of the group-chatbots sub-resource: links between a group and the assistants its members see. */

type GroupRow = typeof groups.$inferSelect;

const linkColumns = {
  id: chatbotGroups.id,
  groupId: chatbotGroups.groupId,
  chatbotId: chatbots.id,
  chatbotName: chatbots.name,
  createdAt: chatbotGroups.createdAt,
};
export type GroupChatbotRow = Awaited<ReturnType<typeof selectGroupChatbots>>[number];

export const selectGroupChatbots = (db: Db) =>
  db.select(linkColumns).from(chatbotGroups).innerJoin(chatbots, eq(chatbots.id, chatbotGroups.chatbotId));
export const countGroupChatbots = (db: Db) =>
  db.select({ n: count() }).from(chatbotGroups).innerJoin(chatbots, eq(chatbots.id, chatbotGroups.chatbotId));

/** Links of one group to assistants the caller can see, optionally by assistant name. */
export const groupChatbotFilter = (access: OrgAccess, userId: string, groupId: string, query?: string) =>
  and(
    eq(chatbotGroups.groupId, groupId),
    visibleChatbotsCondition(access, userId),
    query ? contains(chatbots.name, query) : undefined,
  );

/** A page of one group's links to assistants the caller can see, oldest link first. */
export async function listGroupChatbots(
  db: Db,
  access: OrgAccess,
  userId: string,
  groupId: string,
  query: string | undefined,
  window: PageWindow,
) {
  const where = groupChatbotFilter(access, userId, groupId, query);
  const page = await paginate(window, countGroupChatbots(db).where(where), ({ limit, offset }) =>
    selectGroupChatbots(db)
      .where(where)
      .orderBy(asc(chatbotGroups.createdAt), asc(chatbotGroups.id))
      .limit(limit)
      .offset(offset),
  );
  return mapPage(page, groupChatbotRecord);
}

export async function findGroupChatbot(db: Db, access: OrgAccess, userId: string, groupId: string, id: string) {
  const [row] = isUuid(id)
    ? await selectGroupChatbots(db).where(and(eq(chatbotGroups.id, id), groupChatbotFilter(access, userId, groupId)))
    : [];
  if (!row) throw notFound("Group assistant not found.");
  return row;
}

/** Takes an assistant the caller can see away from a group; the assistant stays. */
export async function removeGroupChatbot(db: Db, access: OrgAccess, userId: string, groupId: string, id: string) {
  const link = await findGroupChatbot(db, access, userId, groupId, id);
  await db.delete(chatbotGroups).where(eq(chatbotGroups.id, link.id));
}

/**
 * Gives assistants to a group. Every id must be an assistant of the group's organization that the
 * caller can see (else 400 and nothing is written); assistants already linked are skipped.
 * Returns the links it created, in request order.
 */
export async function addGroupChatbots(
  db: Db,
  access: OrgAccess,
  userId: string,
  group: GroupRow,
  chatbotIds: string[],
) {
  const visible = and(eq(chatbots.organizationId, group.organizationId), visibleChatbotsCondition(access, userId));
  const created = await addGroupLinks(db, chatbotIds, {
    part: 80,
    known: (ids) =>
      db
        .select({ id: chatbots.id })
        .from(chatbots)
        .where(and(inArray(chatbots.id, ids), visible)),
    present: (ids) =>
      db
        .select({ id: chatbotGroups.chatbotId })
        .from(chatbotGroups)
        .where(and(eq(chatbotGroups.groupId, group.id), inArray(chatbotGroups.chatbotId, ids))),
    field: "chatbots",
    lead: "No such assistants in this organization",
    link: (chatbotId, now) => ({ id: uuidv7(), groupId: group.id, chatbotId, createdAt: now }),
    insert: (rows) => db.insert(chatbotGroups).values(rows).onConflictDoNothing(),
    read: (ids) => selectGroupChatbots(db).where(inArray(chatbotGroups.id, ids)),
  });
  return created.map(groupChatbotRecord);
}
