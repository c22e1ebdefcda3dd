import type { Context } from "hono";
import { eq, sql } from "drizzle-orm";
import type { AppEnv } from "../../env";
import { batchQaItems, inboxes } from "../../db/schema";
import { notFound } from "../../lib/errors";
import { currentAccess, requirePermission } from "../../services/access";
import { findBatchQa, type BatchQaRow } from "../../services/batch-qa";
import { getVisibleChatbot } from "../../services/chatbots/visibility";
import { getWebChat } from "../../services/inboxes";
import { batchQaRecord } from "../../services/records/batch-qas";
import type { Permission } from "../../services/permissions";

/** The web chat of the path and its assistant, when the caller holds `permission` and may see both (else 403 / 404). */
export async function webChatAssistant(c: Context<AppEnv>, webchatPk: string, permission: Permission) {
  const access = await currentAccess(c);
  requirePermission(access, permission);
  const webChat = await getWebChat(c.var.db, access.organizationId, webchatPk);
  if (!webChat) throw notFound("Web chat not found.");
  const [inbox] = await c.var.db
    .select({ chatbotId: inboxes.chatbotId })
    .from(inboxes)
    .where(eq(inboxes.id, webChat.inbox.id));
  const chatbot = inbox?.chatbotId
    ? await getVisibleChatbot(c.var.db, access, c.var.principal.userId, inbox.chatbotId)
    : null;
  return { access, webChat, chatbot };
}

/** A batch of the web chat in the path, with its assistant's name (404 when not the caller's). */
export async function batchQaOf(c: Context<AppEnv>, webchatPk: string, id: string) {
  const { access, chatbot } = await webChatAssistant(c, webchatPk, "chatbot.view");
  const batch = await findBatchQa(c.var.db, access.organizationId, webchatPk, id);
  if (!batch) throw notFound("Batch QA not found.");
  return { batch, chatbotName: chatbot?.id === batch.chatbotId ? chatbot.name : "" };
}

export async function batchQaView(c: Context<AppEnv>, batch: BatchQaRow, chatbotName: string) {
  const [avg] = await c.var.db
    .select({ value: sql<number | null>`avg(${batchQaItems.answerCorrectness})` })
    .from(batchQaItems)
    .where(eq(batchQaItems.batchQaId, batch.id));
  return batchQaRecord(batch, chatbotName, avg?.value ?? null);
}
