import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { authorize } from "../../services/access";
import type { ConversationChange } from "../../services/conversations";
import { changeConversationBy } from "../../services/conversation/operator-writes";
import type { ChangeReason } from "../../services/records/conversation-events";
import { conversationRecord, type ConversationRecord } from "../../services/records/conversations";

/**
 * An operator's change to a conversation (handoff, takeover, hand back, resolve), shared by the
 * routes that make one: `conversation.manage`, then the change as the caller (changeConversationBy: through the
 * conversation's object, told to the live inbox, automatic assignment after it). Returns the record as it is now.
 */
export async function changeConversation(
  c: Context<AppEnv>,
  id: string,
  change: (userId: string) => ConversationChange,
  reason: ChangeReason = "operator",
): Promise<ConversationRecord> {
  const access = await authorize(c, "conversation.manage");
  const waitUntil = (p: Promise<unknown>) => c.executionCtx.waitUntil(p);
  const { db, principal } = c.var;
  return conversationRecord(
    await changeConversationBy(c.env, db, waitUntil, access.organizationId, principal.user, id, change, reason),
  );
}
