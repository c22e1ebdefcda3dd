// Typing indicators, both ways (docs/decisions.md, "Typing and satisfaction"). Ephemeral: nothing is
// stored. An operator's typing reaches the visitor through the conversation's object (the widget's
// live stream) or, on a messaging channel, the platform's own typing action; a visitor's typing
// reaches the operators through the organization's live inbox stream.
import type { Bindings, Db } from "../../env";
import { conversationObject, type ConversationRow } from "../conversations";
import { storedMessages, threadKeyOf } from "../messages";
import { platformContext } from "../channels/http";
import { adapterFor } from "../channels/platforms";
import { loadChannel } from "../channels/settings";
import { PlatformError } from "../channels/types";
import type { TypingEvent } from "../records/conversation-events";
import { publishInboxEvents } from "./inbox-events";
import { logWarn } from "../../lib/log";

type Sender = TypingEvent["sender"];

/**
 * A member typing in a conversation (or stopped): the widget's subscribers see `event: typing`
 * `{typing, name}`; a conversation of a messaging channel shows the platform's typing action (only
 * when typing starts: no platform of ours has a "stopped" that matters, the action lapses by itself
 * after a few seconds); other operators see `conversation.typing`.
 */
export async function operatorTyping(
  env: Bindings,
  db: Db,
  waitUntil: (p: Promise<unknown>) => void,
  conversation: ConversationRow,
  sender: Sender,
  typing: boolean,
) {
  await conversationObject(env, conversation.id).typing(conversation.id, typing, sender.name);
  waitUntil(publishInboxEvents(env, conversation.organizationId, typingEvent(conversation.id, sender, typing)));
  if (typing) waitUntil(channelTyping(env, db, conversation));
}

/** A visitor typing in their conversation (or stopped): told to the organization's live inbox. */
export function visitorTyping(
  env: Bindings,
  conversation: ConversationRow,
  sender: Sender,
  typing: boolean,
): Promise<void> {
  return publishInboxEvents(env, conversation.organizationId, typingEvent(conversation.id, sender, typing));
}

const typingEvent = (conversationId: string, sender: Sender, typing: boolean) => ({
  event: "conversation.typing" as const,
  data: { conversationId, typing, sender },
});

/**
 * The platform's typing action in the chat the conversation answers (its latest message from the
 * platform, read by the conversation's object). A platform's refusal costs the visitor only the
 * indicator: logged, not thrown.
 */
async function channelTyping(env: Bindings, db: Db, conversation: ConversationRow): Promise<void> {
  const channel = await loadChannel(env, db, conversation.inboxId);
  if (!channel) return;
  const adapter = await adapterFor(channel.config.platform);
  if (!adapter.typing) return;
  const [latest] = await storedMessages(env, conversation.organizationId, conversation.id).lookup([
    { latest: { type: "incoming", threadKey: true } },
  ]);
  if (!latest) return;
  try {
    await adapter.typing(platformContext(env, channel.config), threadKeyOf(latest));
  } catch (err) {
    if (!(err instanceof PlatformError)) throw err;
    logWarn("typing indicator not shown", { error: err.message });
  }
}
