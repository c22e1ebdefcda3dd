import { and, eq, isNull, ne, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { cursorWindow } from "../../db/paginate";
import { conversations } from "../../db/schema";
import type { Cursor } from "../../lib/pagination";
import { badRequest } from "../../lib/errors";
import type { ConversationRecord } from "../records/conversations";

/** The inbox's views (the console's tabs): mine, unassigned (a team's with `team=`), waiting. */
export function viewCondition(view: "mine" | "unassigned" | "waiting", userId: string): SQL {
  if (view === "mine") return and(eq(conversations.assigneeId, userId), ne(conversations.status, "resolved"))!;
  if (view === "unassigned") return and(isNull(conversations.assigneeId), ne(conversations.status, "resolved"))!;
  return eq(conversations.status, "queued");
}

// A conversation queued before waitingSince existed has none: it sorts as waiting since the epoch.
const waitingKey = sql`coalesce(${conversations.waitingSince}, 0)`;

/**
 * The list's order and where a cursor's page starts. Newest first by id (uuid v7) as ever; the
 * waiting view longest waiting first, by (waitingSince, id), whose cursor key is `waitingSince:id`. `id` is the column
 * the id is read from: the conversation's, or a label's links' (`labelled.conversationId`) when the list is read from
 * them.
 */
export function listOrder(waiting: boolean, cursor: Cursor | null, pageSize: number, id: SQLiteColumn) {
  if (!waiting) {
    return {
      ...cursorWindow([id], "desc", cursor, [String(cursor?.k)], pageSize),
      key: (r: ConversationRecord) => r.id,
    };
  }
  let values: unknown[] = [];
  if (cursor) {
    const match = /^(\d+):(.+)$/.exec(String(cursor.k));
    if (!match) throw badRequest("Invalid cursor.", { cursor: ["Invalid cursor."] });
    values = [Number(match[1]), match[2]];
  }
  return {
    ...cursorWindow([waitingKey, conversations.id], "asc", cursor, values, pageSize),
    key: (r: ConversationRecord) => `${r.waitingSince ?? 0}:${r.id}`,
  };
}
