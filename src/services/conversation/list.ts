// The organization's conversation list (the console's inbox): its filters, views and cursor over either order.
import { and, eq, isNull, sql, type SQL } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { conversations, inboxes } from "../../db/schema";
import { notFound } from "../../lib/errors";
import { client } from "../../db/prepared";
import { decodeCursor } from "../../lib/pagination";
import { parseDate } from "../../lib/time";
import { listOrder, viewCondition } from "../assignment/views";
import type { ConversationRow } from "../conversations";
import { hasLabel } from "../labels";
import { conversationRecord } from "../records/conversations";
import { firstAcrossParts, sqlOrder } from "../shards/parts-merge";
import { keywordCondition } from "./search";
import { type ConversationRows, conversationViews, selectConversationRows } from "./views";

/** The list's filters, each optional (see the route's query for their meaning). */
export interface ConversationFilters {
  cursor?: string;
  pageSize: number;
  inbox?: string;
  chatbot?: string;
  contact?: string;
  status?: ConversationRow["status"];
  progressStatus?: ConversationRow["progressStatus"];
  startDate?: string;
  endDate?: string;
  keyword?: string;
  label?: string;
  assignee?: string;
  team?: string;
  view?: "mine" | "unassigned" | "waiting";
  isTest?: "true" | "false";
}

/**
 * `pageSize + 1` conversations from the cursor on, with the decoded cursor and the key of the list's
 * order, for `cursorResponse`. An inbox filter that is not the organization's is a 404. The rows are read on each of
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
  if (q.inbox) {
    const [inbox] = await db
      .select({ id: inboxes.id })
      .from(inboxes)
      .where(and(eq(inboxes.id, q.inbox), eq(inboxes.organizationId, organizationId)));
    if (!inbox) throw notFound("Inbox not found.");
  }
  const cursor = decodeCursor(q.cursor);
  const keyword = q.keyword?.trim();
  const waiting = q.view === "waiting";
  const order = listOrder(waiting, cursor, q.pageSize);
  const where = (searched: SQL | undefined) =>
    and(
      eq(conversations.organizationId, organizationId),
      q.inbox ? eq(conversations.inboxId, q.inbox) : undefined,
      q.chatbot ? eq(conversations.chatbotId, q.chatbot) : undefined,
      q.contact ? eq(conversations.contactId, q.contact) : undefined,
      q.status ? eq(conversations.status, q.status) : undefined,
      q.progressStatus ? eq(conversations.progressStatus, q.progressStatus) : undefined,
      q.isTest ? eq(conversations.isTest, q.isTest === "true") : undefined,
      q.assignee === "none"
        ? isNull(conversations.assigneeId)
        : q.assignee
          ? eq(conversations.assigneeId, q.assignee === "me" ? me : q.assignee)
          : undefined,
      q.team ? eq(conversations.teamId, q.team) : undefined,
      q.view ? viewCondition(q.view, me) : undefined,
      // `+` keeps SQLite from the created_at index: walking (organization, id) newest first needs no sort.
      q.startDate ? sql`+${conversations.createdAt} >= ${parseDate(q.startDate)}` : undefined,
      q.endDate ? sql`+${conversations.createdAt} <= ${parseDate(q.endDate, true)}` : undefined,
      order.after,
      q.label ? hasLabel(q.label) : undefined,
      searched,
    );
  // One part: its terms where the organization's are (the shard directory's), as before the parts.
  const terms = (part: Db) => (parts.length > 1 ? client(part) : undefined);
  const inPart = async (part: Db): Promise<ConversationRows> => {
    const searched = keyword ? await keywordCondition(env, organizationId, keyword, terms(part)) : undefined;
    return selectConversationRows(part)
      .where(where(searched))
      .orderBy(...order.orderBy)
      .limit(order.limit);
  };
  const key = (r: ConversationRows[number]) =>
    waiting ? [r.conversation.waitingSince ?? 0, r.conversation.id] : [r.conversation.id];
  const rows = firstAcrossParts(parts, inPart, sqlOrder(key, !order.ascending), order.limit);
  const views = await conversationViews(db, organizationId, rows);
  return { cursor, rows: views.map(conversationRecord), key: order.key };
}
