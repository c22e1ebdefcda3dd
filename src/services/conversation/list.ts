// The organization's conversation list (the console's inbox): its filters, views and cursor over either order.
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { conversations, inboxes } from "../../db/schema";
import { notFound } from "../../lib/errors";
import { decodeCursor } from "../../lib/pagination";
import { parseDate } from "../../lib/time";
import { listOrder, viewCondition } from "../assignment/views";
import type { ConversationRow } from "../conversations";
import { hasLabel } from "../labels";
import { conversationRecord } from "../records/conversations";
import { keywordCondition } from "./search";
import { conversationViews, selectConversationRows } from "./views";

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
 * order, for `cursorResponse`. An inbox filter that is not the organization's is a 404. The rows are read on the
 * organization's data plane (`data`), the inbox and the names on the control plane (`db`).
 */
export async function listConversations(
  env: Bindings,
  db: Db,
  data: Db,
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
  const order = listOrder(q.view === "waiting", cursor, q.pageSize);
  const searched = keyword ? await keywordCondition(env, organizationId, keyword) : undefined;
  const rows = selectConversationRows(data)
    .where(
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
      ),
    )
    .orderBy(...order.orderBy)
    .limit(order.limit);
  const views = await conversationViews(db, organizationId, rows);
  return { cursor, rows: views.map(conversationRecord), key: order.key };
}
