import { inArray } from "drizzle-orm";
import type { Db } from "../../env";
import { contacts, conversationEvents, conversations } from "../../db/schema";
import { chunk } from "../../lib/sql";
import { selectConversationRows, viewsAcrossOrganizations } from "../conversation/views";
import { conversationRecord } from "../records/conversations";
import type { ConversationEventData } from "./conversation-payloads";

/**
 * Everything a payload shows of each lifecycle event, by event id: the event and its conversation
 * as it is now (one query per 90 events). An event whose conversation is gone is missing (deleted
 * with it). The events, conversations and contacts are read on `data` (the data plane), the names of what the
 * conversations point at on `db`.
 */
export async function conversationEventData(
  db: Db,
  data: Db,
  eventIds: string[],
): Promise<Map<string, ConversationEventData>> {
  const rows = (await Promise.all(chunk(eventIds).map((ids) => eventRows(db, data, ids)))).flat();
  return new Map(
    rows.map(({ event: e, view, contact }) => [
      e.id,
      {
        kind: "conversation.updated",
        id: e.id,
        createdAt: e.createdAt,
        changes: e.changes,
        reason: e.reason,
        conversation: conversationRecord(view),
        contact: contact?.id ? contact : null,
      },
    ]),
  );
}

const eventRows = async (db: Db, data: Db, ids: string[]) => {
  const events = await data.select().from(conversationEvents).where(inArray(conversationEvents.id, ids));
  if (!events.length) return [];
  const conversationIds = [...new Set(events.map((e) => e.conversationId))];
  const rows = await selectConversationRows(data).where(inArray(conversations.id, conversationIds));
  const views = new Map((await viewsAcrossOrganizations(db, rows)).map((v) => [v.conversation.id, v]));
  const contactIds = [...views.values()].flatMap((v) => (v.contact?.id ? [v.contact.id] : []));
  const people = contactIds.length
    ? new Map(
        (
          await data
            .select({
              id: contacts.id,
              name: contacts.name,
              email: contacts.email,
              phoneNumber: contacts.phoneNumber,
              sourceId: contacts.sourceId,
            })
            .from(contacts)
            .where(inArray(contacts.id, contactIds))
        ).map((c) => [c.id, c]),
      )
    : new Map();
  return events.flatMap((event) => {
    const view = views.get(event.conversationId);
    return view ? [{ event, view, contact: view.contact?.id ? (people.get(view.contact.id) ?? null) : null }] : [];
  });
};
