import { and, count, desc, eq, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../env";
import { chatbotKnowledgeBases, faqs, knowledgeBaseFiles, knowledgeBases } from "../../db/schema";
import { type PageWindow, mapPage, paginate } from "../../db/paginate";
import { contains } from "../../lib/sql";
import type { OrgAccess } from "../access";
import type { FaqRow } from "../knowledge/faqs";
import { type KnowledgeBaseRow, visibleKnowledgeBasesCondition } from "../knowledge/knowledge-bases";
import { fileLabels } from "../knowledge/files";
import { faqRecords } from "../records/faqs";
import { fileRecord } from "../records/knowledge-files";
import { type ChatbotRow, getChatbotForRead } from "./visibility";

export const KNOWLEDGE_SOURCES = ["self_built", "built_in", "all"] as const;
export type KnowledgeSource = (typeof KNOWLEDGE_SOURCES)[number];

/**
 * The assistant (404 unless visible) and the condition on `knowledge_bases` selecting the
 * knowledge it lists: the bases linked to it that the caller can also see (seeing an assistant
 * does not open its knowledge bases); null when `source` asks for built-in knowledge, of which
 * there is none.
 */
async function chatbotKnowledgeScope(
  { db, access, userId, chatbotId }: ChatbotKnowledgeOf,
  source: KnowledgeSource,
): Promise<{ bot: ChatbotRow; scope: SQL | null }> {
  const bot = await getChatbotForRead(db, access, userId, chatbotId);
  if (source === "built_in") return { bot, scope: null };
  const scope = and(
    sql`${knowledgeBases.id} in (select ${chatbotKnowledgeBases.knowledgeBaseId} from ${chatbotKnowledgeBases}
      where ${chatbotKnowledgeBases.chatbotId} = ${bot.id})`,
    visibleKnowledgeBasesCondition(access, userId),
  )!;
  return { bot, scope };
}

/**
 * The assistant (404 unless visible) and the knowledge bases its search reads for the caller: those linked to it
 * that they can see (owners: all of them), as its files and FAQs are listed.
 */
export async function searchableKnowledgeOf(of: ChatbotKnowledgeOf) {
  const { bot, scope } = await chatbotKnowledgeScope(of, "self_built");
  return { bot, knowledgeBases: await of.db.select().from(knowledgeBases).where(scope!) };
}

/** Whose knowledge, read by whom. */
export interface ChatbotKnowledgeOf {
  db: Db;
  access: OrgAccess;
  userId: string;
  chatbotId: string;
}

interface ChatbotKnowledgeQuery {
  source: KnowledgeSource;
  /** File name (files) or question (FAQs) contains. */
  query?: string;
}

/** A page of the files of an assistant's knowledge, newest first, as records (URLs under `origin`). */
export async function listChatbotKnowledgeFiles(
  of: ChatbotKnowledgeOf,
  q: ChatbotKnowledgeQuery,
  window: PageWindow,
  origin: string,
) {
  const db = of.db;
  const { scope } = await chatbotKnowledgeScope(of, q.source);
  if (!scope) return { count: 0, items: [] };
  const where = and(scope, q.query ? contains(knowledgeBaseFiles.filename, q.query) : undefined);
  const join = eq(knowledgeBases.id, knowledgeBaseFiles.knowledgeBaseId);
  const page = await paginate(
    window,
    db.select({ n: count() }).from(knowledgeBaseFiles).innerJoin(knowledgeBases, join).where(where),
    ({ limit, offset }) =>
      db
        .select({ file: knowledgeBaseFiles, kb: { id: knowledgeBases.id, name: knowledgeBases.name } })
        .from(knowledgeBaseFiles)
        .innerJoin(knowledgeBases, join)
        .where(where)
        .orderBy(desc(knowledgeBaseFiles.createdAt), desc(knowledgeBaseFiles.id))
        .limit(limit)
        .offset(offset),
  );
  const labels = await fileLabels(
    db,
    page.items.map((r) => r.file.id),
  );
  return mapPage(page, ({ file, kb }) => fileRecord(origin, file, kb, labels(file.id)));
}

/** A page of the FAQs of an assistant's knowledge, newest first, as records. */
export async function listChatbotKnowledgeFaqs(of: ChatbotKnowledgeOf, q: ChatbotKnowledgeQuery, window: PageWindow) {
  const db = of.db;
  const { scope } = await chatbotKnowledgeScope(of, q.source);
  if (!scope) return { count: 0, items: [] };
  const where = and(scope, q.query ? contains(faqs.question, q.query) : undefined);
  const join = eq(knowledgeBases.id, faqs.knowledgeBaseId);
  const page = await paginate(
    window,
    db.select({ n: count() }).from(faqs).innerJoin(knowledgeBases, join).where(where),
    ({ limit, offset }) =>
      db
        .select({ faq: faqs, kb: knowledgeBases })
        .from(faqs)
        .innerJoin(knowledgeBases, join)
        .where(where)
        .orderBy(desc(faqs.createdAt), desc(faqs.id))
        .limit(limit)
        .offset(offset),
  );
  // `faqRecords` maps the FAQs of one knowledge base; group the page by base, then keep its order.
  const byBase = new Map<string, { kb: KnowledgeBaseRow; rows: FaqRow[] }>();
  for (const { faq, kb } of page.items)
    (byBase.get(kb.id) ?? byBase.set(kb.id, { kb, rows: [] }).get(kb.id)!).rows.push(faq);
  const mapped = new Map(
    (await Promise.all([...byBase.values()].map(({ kb, rows }) => faqRecords(db, kb, rows))))
      .flat()
      .map((f) => [f.id, f]),
  );
  return mapPage(page, ({ faq }) => mapped.get(faq.id)!);
}
