import { and, eq } from "drizzle-orm";
import type { Bindings } from "../../env";
import { conversations } from "../../db/schema";
import { ApiError, notFound } from "../../lib/errors";
import { timingSafeEqual } from "../../lib/crypto";
import { isUuid } from "../../lib/ids";
import type { PublicMessage } from "../records/widget";
import { conversationDb } from "../shards/parts";
import { firstPublicMessages } from "./messages";
import { signShareToken } from "./tokens";
import { type Visitor, visitorConversation } from "./visitors";
import type { PublicWebChat } from "./web-chats";

/** A shared conversation shows at most this many messages. */
const SHARED_MESSAGES = 200;

/** The share token of one of the visitor's conversations; 403 when the web chat does not share (before any lookup). */
export async function shareToken(
  env: Bindings,
  chat: PublicWebChat,
  visitor: Visitor,
  conversationId: string,
): Promise<string> {
  if (!chat.webChat.settings.enableShareConversation)
    throw new ApiError(403, "permission_denied", "This web chat does not share conversations.");
  const conversation = await visitorConversation(env, chat, visitor, conversationId);
  return `${conversation.id}.${await signShareToken(chat.webChat.id, conversation.id, env.ENCRYPTION_KEY)}`;
}

/**
 * The conversation a share token names, read-only: its title and first messages. 404 for a bad
 * token or when sharing was switched off since.
 */
export async function sharedConversation(
  env: Bindings,
  chat: PublicWebChat,
  share: string,
): Promise<{ title: string; results: PublicMessage[] }> {
  const [conversationId, signature = ""] = share.split(".");
  const expected = isUuid(conversationId)
    ? await signShareToken(chat.webChat.id, conversationId, env.ENCRYPTION_KEY)
    : "";
  const encoder = new TextEncoder();
  if (
    !chat.webChat.settings.enableShareConversation ||
    !expected ||
    !timingSafeEqual(encoder.encode(signature), encoder.encode(expected))
  )
    throw notFound();
  const data = await conversationDb(env, chat.webChat.organizationId, conversationId);
  const [conversation] = await data
    .select()
    .from(conversations)
    .where(and(eq(conversations.id, conversationId), eq(conversations.inboxId, chat.inboxId)));
  if (!conversation) throw notFound();
  return {
    title: conversation.title,
    results: await firstPublicMessages(env, conversation, chat.webChat.settings, SHARED_MESSAGES),
  };
}
