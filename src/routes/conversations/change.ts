import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { notFound } from "../../lib/errors";
import { authorize, conversationData } from "../../services/access";
import { conversationObject, type ConversationChange } from "../../services/conversations";
import { findConversation } from "../../services/conversation/views";
import { conversationEvent, lifecycleEvent, publishInboxEvents } from "../../services/conversation/inbox-events";
import type { ChangeReason } from "../../services/records/conversation-events";
import { conversationRecord, type ConversationRecord } from "../../services/records/conversations";
import { assignAfterChange } from "../../services/assignment/round-robin";

/**
 * An operator's change to a conversation (handoff, takeover, hand back, resolve), shared by the
 * routes that make one: `conversation.manage`, through the conversation's object (which orders it
 * after the messages on their way), then told to the live inbox; automatic assignment follows it
 * (services/assignment/round-robin.ts, `assignAfterChange`). Returns the record as it is now.
 */
export async function changeConversation(
  c: Context<AppEnv>,
  id: string,
  change: (userId: string) => ConversationChange,
  reason: ChangeReason = "operator",
): Promise<ConversationRecord> {
  const access = await authorize(c, "conversation.manage");
  const db = c.var.db;
  const data = await conversationData(c, id);
  const before = await findConversation(db, data, access.organizationId, id);
  if (!before) throw notFound();
  const { user } = c.var.principal;
  const made = await conversationObject(c.env, id).change(
    before.conversation,
    change(user.id),
    { name: user.name, avatar: user.avatar },
    reason,
  );
  const view = (await findConversation(db, data, access.organizationId, id))!;
  // A pick-up that found the conversation taken (ConversationChange.whileWaiting): the change that took it was told.
  if (!made) return conversationRecord(view);
  // Told even when nothing changed (a repeated take-over): the inbox's view is read again.
  const event =
    lifecycleEvent(before.conversation, view.conversation, reason) ??
    conversationEvent("conversation.updated", view.conversation);
  // Automatic assignment after it, as after an assistant's handoff: its events follow the change's.
  c.executionCtx.waitUntil(
    publishInboxEvents(c.env, access.organizationId, event).then(() =>
      assignAfterChange(c.env, db, before.conversation, view.conversation),
    ),
  );
  return conversationRecord(view);
}
