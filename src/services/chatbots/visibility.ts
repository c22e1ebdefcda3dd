// Which assistants a member sees (CONTRACT section 4), and reading one for a change.
import { and, count, desc, eq, isNull, or, type SQL } from "drizzle-orm";
import { unionAll } from "drizzle-orm/sqlite-core";
import type { Db } from "../../env";
import { chatbotGroups, chatbots } from "../../db/schema";
import { notFound } from "../../lib/errors";
import { contains } from "../../lib/sql";
import type { Page, PageWindow } from "../../db/paginate";
import { can, type OrgAccess } from "../access";
import { groupIdsOf, groupLinksOf, reachableThroughGroups } from "../links";
import { rowById } from "../../db/find";

export type ChatbotRow = typeof chatbots.$inferSelect;
/** Assistants given to groups (`chatbot_groups`). */
export const chatbotGroupLinks = groupLinksOf(chatbotGroups, "chatbotId");

/**
 * The assistants the caller sees (CONTRACT section 4): their own personal assistants, and in the
 * organization of `access` all of them for owners; for other members those they created and,
 * with `chatbot.view`, those given to one of their groups.
 */
export function visibleChatbotsCondition(access: OrgAccess, userId: string): SQL {
  return or(...visibleChatbotParts(access, userId))!;
}

/** The two disjoint parts of what the caller sees: their personal assistants, and those of the organization. */
function visibleChatbotParts(access: OrgAccess, userId: string): [SQL, SQL] {
  const personal = and(isNull(chatbots.organizationId), eq(chatbots.createdById, userId))!;
  const inOrganization = eq(chatbots.organizationId, access.organizationId);
  if (access.isOwner) return [personal, inOrganization];
  const mine = eq(chatbots.createdById, userId);
  const reach = can(access, "chatbot.view")
    ? or(mine, reachableThroughGroups(chatbots.id, chatbotGroupLinks, access.memberId))
    : mine;
  return [personal, and(inOrganization, reach)!];
}

/**
 * A page of the assistants the caller sees that match `filter`, newest first, and how many match,
 * in one D1 round trip. Each part is read by its own index in creation order (chatbots_org_created_idx,
 * chatbots_personal_idx) and merged (UNION ALL): no scan and no sort of the organization's assistants,
 * which an OR of the two parts costs (about 10 ms a page at 10,000; docs/decisions.md).
 */
export async function listVisibleChatbots(
  db: Db,
  access: OrgAccess,
  userId: string,
  q: { query?: string; replyMode?: ChatbotRow["replyMode"] },
  page: PageWindow,
): Promise<Page<ChatbotRow>> {
  const filter = and(
    q.query ? contains(chatbots.name, q.query) : undefined,
    q.replyMode ? eq(chatbots.replyMode, q.replyMode) : undefined,
  );
  const [personal, inOrganization] = visibleChatbotParts(access, userId).map((part) => and(part, filter));
  const [[personalCount], [organizationCount], rows] = await db.batch([
    db.select({ n: count() }).from(chatbots).where(personal),
    db.select({ n: count() }).from(chatbots).where(inOrganization),
    unionAll(db.select().from(chatbots).where(personal), db.select().from(chatbots).where(inOrganization))
      .orderBy(desc(chatbots.createdAt), desc(chatbots.id))
      .limit(page.limit)
      .offset(page.offset),
  ]);
  return { count: personalCount.n + organizationCount.n, items: rows };
}

/** The ids of the groups an assistant is given to. */
export const chatbotGroupIds = (db: Db, chatbotId: string) => groupIdsOf(db, chatbotGroupLinks, chatbotId);

/** The assistant if the caller may see it, else null (it does not exist for them). */
export async function getVisibleChatbot(
  db: Db,
  access: OrgAccess,
  userId: string,
  id: string,
): Promise<ChatbotRow | null> {
  return rowById(id, () =>
    db
      .select()
      .from(chatbots)
      .where(and(eq(chatbots.id, id), visibleChatbotsCondition(access, userId))),
  );
}

/** The assistant if the caller may see it, else 404; the route has checked the permission its use needs. */
export async function getChatbotForRead(db: Db, access: OrgAccess, userId: string, id: string): Promise<ChatbotRow> {
  const row = await getVisibleChatbot(db, access, userId, id);
  if (!row) throw notFound("Assistant not found.");
  return row;
}
