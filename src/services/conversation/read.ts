import { and, eq, gt } from "drizzle-orm";
import type { Db } from "../../env";
import { conversations } from "../../db/schema";
import { findConversation, type ConversationView } from "./views";

/**
 * Marks a conversation's messages read by the team: its unread count becomes 0. Written straight
 * to D1, not through the conversation's object: a visitor's message on its way adds its 1 to what
 * the row holds then (messageWrites adds, never sets), so whichever lands first the count is right.
 * Returns the conversation as it is now and whether the count changed; null when the organization
 * has no such conversation. `data`: the organization's data plane; `db`: the control plane (the names it shows).
 */
export async function markConversationRead(
  db: Db,
  data: Db,
  organizationId: string,
  id: string,
): Promise<{ view: ConversationView; changed: boolean } | null> {
  const [updated] = await data
    .update(conversations)
    .set({ unreadCount: 0 })
    .where(
      and(eq(conversations.id, id), eq(conversations.organizationId, organizationId), gt(conversations.unreadCount, 0)),
    )
    .returning({ id: conversations.id });
  const view = await findConversation(db, data, organizationId, id);
  return view ? { view, changed: !!updated } : null;
}
