import type { Bindings } from "../../env";
import type { WebChatSettings } from "../../db/schema";
import type { MessageRow } from "../conversations";
import { storedMessages } from "../messages";
import { publicMessage, type PublicMessage } from "../records/widget";

/**
 * The conversation a visitor reads, as its row gives it: the object reads only the organization's, and only the
 * messages a visitor may read (every one but operators' private notes; the live stream leaves them out too).
 */
type Visited = { id: string; organizationId: string };

/**
 * A conversation's latest `pageSize` visible messages before sequence `before`, oldest first, and
 * whether older ones exist (the widget's history reads backwards from the newest), read by its object.
 */
export async function conversationHistory(
  env: Bindings,
  conversation: Visited,
  settings: WebChatSettings,
  before: number | undefined,
  pageSize: number,
): Promise<{ results: PublicMessage[]; hasMore: boolean }> {
  const rows = await storedMessages(env, conversation.organizationId, conversation.id).visible({
    before: before || undefined,
    newest: true,
    limit: pageSize + 1,
  });
  const page = rows.slice(0, pageSize).reverse();
  return { results: page.map((m) => publicMessage(m, settings)), hasMore: rows.length > pageSize };
}

/**
 * The first `limit` visible messages of a conversation, oldest first, in their public form as a shared transcript
 * shows them, read by its object.
 */
export async function firstPublicMessages(
  env: Bindings,
  conversation: Visited,
  settings: WebChatSettings,
  limit: number,
): Promise<PublicMessage[]> {
  const rows = await storedMessages(env, conversation.organizationId, conversation.id).visible({ limit });
  return rows.map((m) => publicMessage(m, settings, true));
}

/** The assistant's reply `messageId` stored in this conversation, if any, read by its object. */
export async function storedReply(
  env: Bindings,
  conversation: Visited,
  messageId: string,
): Promise<MessageRow | undefined> {
  const row = await storedMessages(env, conversation.organizationId, conversation.id).find(messageId);
  return row?.senderType === "chatbot" ? row : undefined;
}
