import { and, count, desc, eq, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { chatbotKnowledgeBases, faqs, knowledgeBaseFiles, knowledgeBases } from "../../db/schema";
import { type Page, type PageWindow, mapPage, paginate } from "../../db/paginate";
import { contains } from "../../lib/sql";
import type { OrgAccess } from "../access";
import type { FaqRow } from "../knowledge/faqs";
import { type KnowledgeBaseRow, visibleKnowledgeBasesCondition } from "../knowledge/knowledge-bases";
import { fileLabels } from "../knowledge/files";
import { type QueryMetadata, queryScope } from "../knowledge/query-scope";
import type { SearchMethod } from "../knowledge/retrieval/search";
import { searchPage } from "../knowledge/retrieval/search-page";
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

/** What the assistant search asks: its body's fields, `query` and `largeLanguageModel` maybe from the query string. */
export interface AssistantSearch {
  query: string;
  searchMethod?: SearchMethod;
  queryMetadata?: QueryMetadata | null;
  /** The language model for HyDE's hypothetical answer instead of the assistant's: one the organization may use. */
  largeLanguageModel?: string;
}

/**
 * A page of what the assistant would retrieve for the search from its knowledge bases the caller sees
 * (`searchableKnowledgeOf`), with its settings: at most its numberOfRetrievedChunks, HyDE written by its language model
 * unless the search names another.
 */
export function searchAssistantKnowledge(
  env: Bindings,
  db: Db,
  organizationId: string,
  { bot, knowledgeBases }: { bot: ChatbotRow; knowledgeBases: KnowledgeBaseRow[] },
  search: AssistantSearch,
  window: PageWindow,
) {
  const requested = search.largeLanguageModel;
  const options = {
    query: search.query,
    method: search.searchMethod,
    scope: queryScope(search.queryMetadata),
    limit: bot.numberOfRetrievedChunks,
    languageModelId: bot.largeLanguageModelId,
    requestedLanguageModel: requested ? { id: requested, organizationId } : undefined,
  };
  return searchPage(env, db, knowledgeBases, options, window);
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

/**
 * A page of an assistant's knowledge items, files or FAQs, newest first, each with its knowledge base: the items of
 * the bases in scope whose `search` column contains the query (all without one); none for built-in knowledge.
 */
async function knowledgeItemsPage<T extends typeof knowledgeBaseFiles | typeof faqs>(
  of: ChatbotKnowledgeOf,
  q: ChatbotKnowledgeQuery,
  window: PageWindow,
  items: T,
  search: SQLWrapper,
): Promise<Page<{ item: T["$inferSelect"]; kb: KnowledgeBaseRow }>> {
  const db = of.db;
  const { scope } = await chatbotKnowledgeScope(of, q.source);
  if (!scope) return { count: 0, items: [] };
  const where = and(scope, q.query ? contains(search, q.query) : undefined);
  const join = eq(knowledgeBases.id, items.knowledgeBaseId);
  return paginate(
    window,
    db.select({ n: count() }).from(items).innerJoin(knowledgeBases, join).where(where),
    ({ limit, offset }) =>
      db
        .select({ item: items, kb: knowledgeBases })
        .from(items)
        .innerJoin(knowledgeBases, join)
        .where(where)
        .orderBy(desc(items.createdAt), desc(items.id))
        .limit(limit)
        .offset(offset),
  );
}

/** A page of the files of an assistant's knowledge, newest first, as records (URLs under `origin`). */
export async function listChatbotKnowledgeFiles(
  of: ChatbotKnowledgeOf,
  q: ChatbotKnowledgeQuery,
  window: PageWindow,
  origin: string,
) {
  const page = await knowledgeItemsPage(of, q, window, knowledgeBaseFiles, knowledgeBaseFiles.filename);
  const labels = await fileLabels(
    of.db,
    page.items.map((r) => r.item.id),
  );
  return mapPage(page, ({ item, kb }) => fileRecord(origin, item, { id: kb.id, name: kb.name }, labels(item.id)));
}

/** A page of the FAQs of an assistant's knowledge, newest first, as records. */
export async function listChatbotKnowledgeFaqs(of: ChatbotKnowledgeOf, q: ChatbotKnowledgeQuery, window: PageWindow) {
  const page = await knowledgeItemsPage(of, q, window, faqs, faqs.question);
  // `faqRecords` maps the FAQs of one knowledge base; group the page by base, then keep its order.
  const byBase = new Map<string, { kb: KnowledgeBaseRow; rows: FaqRow[] }>();
  for (const { item, kb } of page.items)
    (byBase.get(kb.id) ?? byBase.set(kb.id, { kb, rows: [] }).get(kb.id)!).rows.push(item);
  const mapped = new Map(
    (await Promise.all([...byBase.values()].map(({ kb, rows }) => faqRecords(of.db, kb, rows))))
      .flat()
      .map((f) => [f.id, f]),
  );
  return mapPage(page, ({ item }) => mapped.get(item.id)!);
}
