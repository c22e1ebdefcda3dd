import { eq, inArray } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { chatbotKnowledgeBases, chatbots, inboxes, knowledgeBases, models, webChats } from "../../db/schema";
import { ApiError, notFound } from "../../lib/errors";
import { decryptSecret } from "../../lib/crypto";
import { isUuid } from "../../lib/ids";
import { tableCache } from "../../db/write-watch";
import { knowledgeBasesOfChatbot, type KnowledgeBaseRow } from "../knowledge/knowledge-bases";
import type { ChatbotRow } from "../chatbots/visibility";
import type { ModelRow } from "../models";
import type { WebChatRow } from "../inboxes";

/** What the public endpoints need of a web chat: the row, its inbox and the inbox's assistant as replies need it. */
export interface PublicWebChat {
  webChat: WebChatRow;
  inboxId: string;
  assistant: { chatbot: ChatbotRow; model: ModelRow | null; knowledgeBases: KnowledgeBaseRow[] } | null;
}

/**
 * Remembered for 2 seconds per isolate like assistants (docs/decisions.md, "Per-isolate caches"):
 * a widget's every request reads its web chat, and a visitor's message then reads nothing before
 * the model is asked. A write to what they are read from forgets them in this isolate.
 */
const chats = tableCache<PublicWebChat | null>([
  webChats,
  inboxes,
  chatbots,
  models,
  knowledgeBases,
  chatbotKnowledgeBases,
]);

/**
 * The web chat with its inbox and assistant, in one D1 round trip (single-table selects only: a D1
 * batch keys rows by column name). Null when there is no such web chat.
 */
export async function publicWebChat(db: Db, id: string): Promise<PublicWebChat | null> {
  if (!isUuid(id)) return null;
  return chats.remember(id, async () => {
    const inboxOf = db.select({ id: webChats.inboxId }).from(webChats).where(eq(webChats.id, id));
    const chatbotOf = db.select({ id: inboxes.chatbotId }).from(inboxes).where(inArray(inboxes.id, inboxOf));
    const [[webChat], [chatbot], [model]] = (await db.batch([
      db.select().from(webChats).where(eq(webChats.id, id)),
      db.select().from(chatbots).where(inArray(chatbots.id, chatbotOf)),
      db
        .select()
        .from(models)
        .where(
          inArray(
            models.id,
            db.select({ id: chatbots.largeLanguageModelId }).from(chatbots).where(inArray(chatbots.id, chatbotOf)),
          ),
        ),
    ] as never)) as [WebChatRow[], ChatbotRow[], ModelRow[]];
    if (!webChat) return null;
    const assistant = chatbot
      ? { chatbot, model: model ?? null, knowledgeBases: await knowledgeBasesOfChatbot(db, chatbot.id) }
      : null;
    return { webChat, inboxId: webChat.inboxId, assistant };
  });
}

/** The web chat for a visitor's request: 404 when absent, 403 `web_chat_inactive` when switched off. */
export async function activeWebChat(db: Db, id: string): Promise<PublicWebChat> {
  const chat = await publicWebChat(db, id);
  if (!chat) throw notFound("Web chat not found.");
  if (!chat.webChat.isActive) throw new ApiError(403, "web_chat_inactive", "This web chat is closed.");
  return chat;
}

/** The web chat's identity secret (set by `POST /web-chats/{id}/identity-secret/`), or null. */
export async function identitySecret(env: Bindings, chat: PublicWebChat): Promise<string | null> {
  const sealed = chat.webChat.settings.identitySecretSealed;
  return typeof sealed === "string" ? decryptSecret(sealed, env.ENCRYPTION_KEY) : null;
}
