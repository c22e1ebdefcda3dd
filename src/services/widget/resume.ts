// A visitor's reply stream picked up again where its last event left it (`Last-Event-ID: <messageId>:<characters>`):
// live while the conversation's object is still writing the reply, else from the reply as stored.
import type { Bindings } from "../../env";
import { notFound } from "../../lib/errors";
import { conversationObject } from "../conversations";
import { interruptible } from "../sse";
import { followEvents, storedReplyEvents } from "./event-ids";
import { storedReply } from "./messages";
import { type Visitor, visitorConversation } from "./visitors";
import type { PublicWebChat } from "./web-chats";

/**
 * The events of reply `last.messageId` after its first `last.offset` characters (all of it sent: `done`), in the
 * visitor's conversation (404 when not theirs, or it holds no such reply): a stream while it is being written, else
 * the stored reply's events as one text.
 */
export async function resumedReply(
  env: Bindings,
  { chat, visitor }: { chat: PublicWebChat; visitor: Visitor },
  conversationId: string,
  last: { messageId: string; offset: number | "done" },
  requestId: string,
): Promise<ReadableStream<Uint8Array> | string> {
  const conversation = await visitorConversation(env, chat, visitor, conversationId);
  const settings = chat.webChat.settings;
  const offset = last.offset === "done" ? Number.MAX_SAFE_INTEGER : last.offset;
  const live = await conversationObject(env, conversation.id).follow(last.messageId);
  if (live) return interruptible(followEvents(live, last.messageId, offset, settings), requestId);
  const stored = await storedReply(env, conversation, last.messageId);
  if (!stored) throw notFound("No such reply in this conversation.");
  return storedReplyEvents(conversation.id, stored, offset, settings);
}
