import { and, asc, avg, count, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../env";
import { batchQaItems, batchQas, chatbots, inboxes } from "../../db/schema";
import { type PageWindow, mapPage, paginate, newestFirstPage } from "../../db/paginate";
import { notFound } from "../../lib/errors";
import type { OrgAccess } from "../access";
import { getVisibleChatbot, visibleChatbotsCondition } from "../chatbots/visibility";
import { getWebChat } from "../inboxes";
import { batchQaItemRecord, batchQaRecord } from "../records/batch-qas";
import { type BatchQaRow, findBatchQa } from ".";

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

/**
 * A batch of the web chat, with its assistant's name. Its answers are its assistant's: a member who may not see that
 * assistant may not see them either (404, as the assistant is). Owners see every assistant, and keep the runs of one
 * since deleted (its name then empty).
 */
export async function findVisibleBatchQa(db: Db, access: OrgAccess, userId: string, webchatPk: string, id: string) {
  if (!(await getWebChat(db, access.organizationId, webchatPk))) throw notFound("Web chat not found.");
  const batch = await findBatchQa(db, access.organizationId, webchatPk, id);
  const chatbot = batch && (await getVisibleChatbot(db, access, userId, batch.chatbotId));
  if (!batch || (!chatbot && !access.isOwner)) throw notFound("Batch QA not found.");
  return { batch, chatbotName: chatbot?.name ?? "" };
}

/** The record of a batch, with the mean answerCorrectness of its items. */
export async function batchQaRecordOf(db: Db, batch: BatchQaRow, chatbotName: string) {
  const [mean] = await db
    .select({ value: sql<number | null>`avg(${batchQaItems.answerCorrectness})` })
    .from(batchQaItems)
    .where(eq(batchQaItems.batchQaId, batch.id));
  return batchQaRecord(batch, chatbotName, mean?.value ?? null);
}

/**
 * A page of a web chat's batches, newest first: for members, those of the assistants they see (findVisibleBatchQa);
 * each with its assistant's name. 404 for a web chat not of the organization.
 */
export async function listBatchQas(db: Db, access: OrgAccess, userId: string, webchatPk: string, window: PageWindow) {
  if (!(await getWebChat(db, access.organizationId, webchatPk))) throw notFound("Web chat not found.");
  const visible = db.select({ id: chatbots.id }).from(chatbots).where(visibleChatbotsCondition(access, userId));
  const where = and(
    eq(batchQas.organizationId, access.organizationId),
    eq(batchQas.webChatId, webchatPk),
    access.isOwner ? undefined : inArray(batchQas.chatbotId, visible),
  );
  const page = await newestFirstPage(db, batchQas, where, window);
  const ids = page.items.map((b) => b.id);
  // The web chat's few assistants, named by the chat rather than by the page's ids (D1 binds 100 values a statement).
  const ofWebChat = db
    .selectDistinct({ id: batchQas.chatbotId })
    .from(batchQas)
    .where(and(eq(batchQas.organizationId, access.organizationId), eq(batchQas.webChatId, webchatPk)));
  const [averages, names] = ids.length
    ? await db.batch([
        db
          .select({ id: batchQaItems.batchQaId, value: avg(batchQaItems.answerCorrectness) })
          .from(batchQaItems)
          .where(inArray(batchQaItems.batchQaId, ids))
          .groupBy(batchQaItems.batchQaId),
        db
          .select({ id: chatbots.id, name: chatbots.name })
          .from(chatbots)
          .where(and(eq(chatbots.organizationId, access.organizationId), inArray(chatbots.id, ofWebChat))),
      ])
    : [[], []];
  const averageOf = new Map(averages.map((a) => [a.id, a.value === null ? null : Number(a.value)]));
  const nameOf = new Map(names.map((c) => [c.id, c.name]));
  return mapPage(page, (b) => batchQaRecord(b, nameOf.get(b.chatbotId) ?? "", averageOf.get(b.id) ?? null));
}

/** A page of a batch's questions, in the file's order. */
export async function listBatchQaItems(db: Db, batch: BatchQaRow, window: PageWindow) {
  const where = and(eq(batchQaItems.batchQaId, batch.id), eq(batchQaItems.organizationId, batch.organizationId));
  const page = await paginate(window, db.select({ n: count() }).from(batchQaItems).where(where), ({ limit, offset }) =>
    db.select().from(batchQaItems).where(where).orderBy(asc(batchQaItems.position)).limit(limit).offset(offset),
  );
  return mapPage(page, batchQaItemRecord);
}
