import { inArray } from "drizzle-orm";
import type { Db } from "../../env";
import { conversationEvents } from "../../db/schema";
import { inChunks } from "../../lib/sql";
import type { ConversationEventData } from "./conversation-payloads";
import { conversationParts, conversationRows } from "./event-data";

/**
 * Everything a payload shows of each lifecycle event, by event id: the event, and its conversation as it is now, read
 * as message events read theirs (event-data.ts), so both kinds carry the same conversation, inbox and contact. The
 * events are read one query per 90; an event whose conversation (or its inbox) is gone is missing (deleted with it).
 */
export async function conversationEventData(
  db: Db,
  data: Db,
  eventIds: string[],
): Promise<Map<string, ConversationEventData>> {
  const events = await inChunks(eventIds, (ids) =>
    data.select().from(conversationEvents).where(inArray(conversationEvents.id, ids)),
  );
  const rows = await inChunks([...new Set(events.map((e) => e.conversationId))], (ids) =>
    conversationRows(db, data, ids),
  );
  const byId = new Map(rows.map((row) => [row.conversation.id, row]));
  return new Map(
    events.flatMap((e) => {
      const row = byId.get(e.conversationId);
      if (!row || row.conversation.organizationId !== e.organizationId) return [];
      const event: ConversationEventData = {
        kind: "conversation.updated",
        id: e.id,
        createdAt: e.createdAt,
        changes: e.changes,
        reason: e.reason,
        ...conversationParts(row),
      };
      return [[e.id, event]];
    }),
  );
}
