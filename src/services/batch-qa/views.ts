import { and, asc, avg, count, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../env";
import { batchQaItems, batchQas, inboxes } from "../../db/schema";
import { type PageWindow, mapPage, paginate, newestFirstPage } from "../../db/paginate";
import { notFound } from "../../lib/errors";
import type { OrgAccess } from "../access";
import { getVisibleChatbot } from "../chatbots/visibility";
import { getWebChat } from "../inboxes";
import { batchQaItemRecord, batchQaRecord } from "../records/batch-qas";
import { type BatchQaRow, findBatchQa } from ".";

type Chatbot = NonNullable<Awaited<ReturnType<typeof getVisibleChatbot>>>;

/** The web chat and its assistant, when the caller may see both (404 for the web chat; null for the assistant). */
export async function webChatAssistant(db: Db, access: OrgAccess, userId: string, webchatPk: string) {
  const webChat = await getWebChat(db, access.organizationId, webchatPk);
  if (!webChat) throw notFound("Web chat not found.");
  const [inbox] = await db
    .select({ chatbotId: inboxes.chatbotId })
    .from(inboxes)
    .where(eq(inboxes.id, webChat.inbox.id));
  const chatbot = inbox?.chatbotId ? await getVisibleChatbot(db, access, userId, inbox.chatbotId) : null;
  return { webChat, chatbot };
}

/** A batch of the web chat, with its assistant's name (404 when not the caller's). */
export async function findVisibleBatchQa(db: Db, access: OrgAccess, userId: string, webchatPk: string, id: string) {
  const { chatbot } = await webChatAssistant(db, access, userId, webchatPk);
  const batch = await findBatchQa(db, access.organizationId, webchatPk, id);
  if (!batch) throw notFound("Batch QA not found.");
  return { batch, chatbotName: chatbot?.id === batch.chatbotId ? chatbot.name : "" };
}

/** The record of a batch, with the mean answerCorrectness of its items. */
export async function batchQaRecordOf(db: Db, batch: BatchQaRow, chatbotName: string) {
  const [mean] = await db
    .select({ value: sql<number | null>`avg(${batchQaItems.answerCorrectness})` })
    .from(batchQaItems)
    .where(eq(batchQaItems.batchQaId, batch.id));
  return batchQaRecord(batch, chatbotName, mean?.value ?? null);
}

/** A page of a web chat's batches, newest first; `chatbot` is the web chat's assistant as the caller sees it. */
export async function listBatchQas(
  db: Db,
  organizationId: string,
  webchatPk: string,
  chatbot: Pick<Chatbot, "id" | "name"> | null,
  window: PageWindow,
) {
  const where = and(eq(batchQas.organizationId, organizationId), eq(batchQas.webChatId, webchatPk));
  const page = await newestFirstPage(db, batchQas, where, window);
  const averages = page.items.length
    ? await db
        .select({ id: batchQaItems.batchQaId, value: avg(batchQaItems.answerCorrectness) })
        .from(batchQaItems)
        .where(
          inArray(
            batchQaItems.batchQaId,
            page.items.map((b) => b.id),
          ),
        )
        .groupBy(batchQaItems.batchQaId)
    : [];
  const averageOf = new Map(averages.map((a) => [a.id, a.value === null ? null : Number(a.value)]));
  return mapPage(page, (b) =>
    batchQaRecord(b, chatbot?.id === b.chatbotId ? chatbot.name : "", averageOf.get(b.id) ?? null),
  );
}

/** A page of a batch's questions, in the file's order. */
export async function listBatchQaItems(db: Db, batch: BatchQaRow, window: PageWindow) {
  const where = and(eq(batchQaItems.batchQaId, batch.id), eq(batchQaItems.organizationId, batch.organizationId));
  const page = await paginate(window, db.select({ n: count() }).from(batchQaItems).where(where), ({ limit, offset }) =>
    db.select().from(batchQaItems).where(where).orderBy(asc(batchQaItems.position)).limit(limit).offset(offset),
  );
  return mapPage(page, batchQaItemRecord);
}
