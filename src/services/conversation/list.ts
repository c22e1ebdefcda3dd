// The organization's conversation list (the console's inbox): its filters, views and cursor over either order.
import { and, eq, isNull, sql, type SQL } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import type { Bindings, Db } from "../../env";
import { conversations, inboxes, labels } from "../../db/schema";
import { notFound } from "../../lib/errors";
import { client } from "../../db/prepared";
import { decodeCursor } from "../../lib/pagination";
import { checkTimezone, wallTimeUtc } from "../statistics/buckets";
import { listOrder, viewCondition } from "../assignment/views";
import { hasLabel } from "../labels";
import { conversationRecord } from "../records/conversations";
import { firstAcrossParts, sqlOrder } from "../shards/parts-merge";
import type { ConversationListQuery } from "./list-query";
import { keywordCondition } from "./search";
import {
  type ConversationRows,
  conversationViews,
  labelled,
  labelledBy,
  selectConversationRows,
  selectLabelledRows,
} from "./views";

/** The list's query as the route validated it (services/conversation/list-query.ts). */
export type ConversationFilters = z.output<typeof ConversationListQuery>;

/**
 * What the list asks of each data part, from the query as validated: its condition (`where`, given the keyword's on
 * that part, which each part's own terms answer), its order and the decoded cursor. Every filter of the query is taken
 * apart here and read below: one added to the query (list-query.ts) and not here fails to compile, rather than being
 * accepted and ignored. Each filter that can match few among many has an index that leads to its page
 * (db/schema/conversations.ts; test/services/conversation-list-plans.test.ts).
 */
export function listConditions(organizationId: string, me: string, q: ConversationFilters) {
  const {
    inbox,
    chatbot,
    contact,
    status,
    progressStatus,
    isTest,
    assignee,
    team,
    view,
    startDate,
    endDate,
    timezone,
    label,
    keyword,
    cursor: after,
    pageSize,
    ...unread
  } = q;
  unread satisfies Record<string, never>;
  const zone = checkTimezone(timezone);
  const cursor = decodeCursor(after);
  const waiting = view === "waiting";
  // A label's page is read from its links (views.ts, selectLabelledRows), but for the waiting view, whose few queued
  // conversations the status index finds.
  const byLabel = label && !waiting ? label : undefined;
  const order = listOrder(waiting, cursor, pageSize, byLabel ? labelled.conversationId : conversations.id);
  const where = (searched: SQL | undefined) =>
    and(
      eq(conversations.organizationId, organizationId),
      inbox ? eq(conversations.inboxId, inbox) : undefined,
      chatbot ? eq(conversations.chatbotId, chatbot) : undefined,
      contact ? eq(conversations.contactId, contact) : undefined,
      status ? eq(conversations.status, status) : undefined,
      progressStatus ? eq(conversations.progressStatus, progressStatus) : undefined,
      isTest ? eq(conversations.isTest, isTest === "true") : undefined,
      assignee === "none"
        ? isNull(conversations.assigneeId)
        : assignee
          ? eq(conversations.assigneeId, assignee === "me" ? me : assignee)
          : undefined,
      team ? eq(conversations.teamId, team) : undefined,
      view ? viewCondition(view, me) : undefined,
      // `+` keeps SQLite from the created_at index: walking (organization, id) newest first needs no sort.
      startDate ? sql`+${conversations.createdAt} >= ${dayStart(zone, startDate)}` : undefined,
      endDate ? sql`+${conversations.createdAt} < ${dayStart(zone, endDate, 1)}` : undefined,
      order.after,
      byLabel ? labelledBy(byLabel) : label ? hasLabel(label) : undefined,
      searched,
    );
  return { inbox, keyword: keyword?.trim(), cursor, waiting, byLabel, order, where };
}

/** When the day `YYYY-MM-DD` (plus `days`) starts in `timezone`, in UTC milliseconds. */
const dayStart = (timezone: string, day: string, days = 0) => {
  const [y, m, d] = day.split("-").map(Number);
  return wallTimeUtc(timezone, y, m, d + days);
};

/** The page's query on one data part, not yet run. */
export const listQueryIn = (part: Db, list: ReturnType<typeof listConditions>, searched?: SQL) =>
  (list.byLabel ? selectLabelledRows(part) : selectConversationRows(part))
    .where(list.where(searched))
    .orderBy(...list.order.orderBy)
    .limit(list.order.limit);

/**
 * `pageSize + 1` conversations from the cursor on, with the decoded cursor and the key of the list's
 * order, for `cursorResponse`. An inbox or label filter that is not the organization's is a 404 (a deleted label's
 * links go by a purge a moment later: until then they would still match). The rows are read on each of
 * the organization's data parts (`parts`, services/shards/parts.ts; a keyword's terms in each part's own) and merged,
 * the inbox and the names on the control plane (`db`).
 */
export async function listConversations(
  env: Bindings,
  db: Db,
  parts: Db[],
  organizationId: string,
  me: string,
  q: ConversationFilters,
) {
  const list = listConditions(organizationId, me, q);
  const [inbox, label] = await Promise.all([
    list.inbox &&
      db
        .select({ id: inboxes.id })
        .from(inboxes)
        .where(and(eq(inboxes.id, list.inbox), eq(inboxes.organizationId, organizationId))),
    q.label &&
      db
        .select({ id: labels.id })
        .from(labels)
        .where(and(eq(labels.id, q.label), eq(labels.organizationId, organizationId))),
  ]);
  if (inbox && !inbox.length) throw notFound("Inbox not found.");
  if (label && !label.length) throw notFound("Label not found.");
  const { keyword, waiting, order } = list;
  // One part: its terms where the organization's are (the shard directory's), as before the parts.
  const terms = (part: Db) => (parts.length > 1 ? client(part) : undefined);
  const inPart = async (part: Db): Promise<ConversationRows> =>
    listQueryIn(part, list, keyword ? await keywordCondition(env, organizationId, keyword, terms(part)) : undefined);
  const key = (r: ConversationRows[number]) =>
    waiting ? [r.conversation.waitingSince ?? 0, r.conversation.id] : [r.conversation.id];
  const rows = firstAcrossParts(parts, inPart, sqlOrder(key, !order.ascending), order.limit);
  const views = await conversationViews(db, organizationId, rows);
  return { cursor: list.cursor, rows: views.map(conversationRecord), key: order.key };
}
