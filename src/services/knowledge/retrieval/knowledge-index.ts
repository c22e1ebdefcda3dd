import { sql } from "drizzle-orm";
import type { Bindings, Db } from "../../../env";
import type { VectorIndex } from "../../../../durable-objects/vector-index";
import type { KeywordDocument } from "./keyword-index";
import { keywordTerms } from "./terms";

/**
 * The keyword side of a knowledge base's index (durable-objects/vector-index.ts holds it beside the
 * base's embedding model and local vectors): texts are analysed here, in the worker, and the object
 * only counts them. D1 keeps the texts; the index is derived from them and can be rebuilt.
 */
export const knowledgeIndexOf = (
  env: Pick<Bindings, "VECTOR_INDEX">,
  knowledgeBaseId: string,
): DurableObjectStub<VectorIndex> => env.VECTOR_INDEX.get(env.VECTOR_INDEX.idFromName(knowledgeBaseId));

export interface IndexedText {
  id: string;
  type: KeywordDocument["type"];
  sourceId: string;
  text: string;
}

/** Documents per call: 1,000 chunks' terms stay far below the RPC message limit. */
const KEYWORD_CALL = 1000;
/** Rows read from D1 per page when an index is rebuilt. */
const REBUILD_PAGE = 1000;

export const keywordDocument = (t: IndexedText): KeywordDocument => ({
  id: t.id,
  type: t.type,
  sourceId: t.sourceId,
  ...keywordTerms(t.text),
});

/** Adds (or replaces, by id) texts in the base's keyword index. */
export async function indexKeywordTexts(
  env: Pick<Bindings, "VECTOR_INDEX">,
  knowledgeBaseId: string,
  texts: IndexedText[],
) {
  const index = knowledgeIndexOf(env, knowledgeBaseId);
  for (let i = 0; i < texts.length; i += KEYWORD_CALL)
    await index.indexKeywords(texts.slice(i, i + KEYWORD_CALL).map(keywordDocument));
}

export async function removeKeywordTexts(env: Pick<Bindings, "VECTOR_INDEX">, knowledgeBaseId: string, ids: string[]) {
  const index = knowledgeIndexOf(env, knowledgeBaseId);
  for (let i = 0; i < ids.length; i += KEYWORD_CALL) await index.removeKeywords(ids.slice(i, i + KEYWORD_CALL));
}

/** A new knowledge base holds nothing, so its keyword index is complete from the start. */
export async function startKeywordIndex(env: Pick<Bindings, "VECTOR_INDEX">, knowledgeBaseId: string) {
  await knowledgeIndexOf(env, knowledgeBaseId).markKeywordsComplete();
}

/**
 * Fills the keyword index of a base that had content before the index existed (its texts are read
 * from D1, page by page, and added; added twice is the same as once), then marks it complete. Run by
 * the ingestion queue (job `keywords`), sent when a search finds the index incomplete; until then
 * searches use the FTS5 index in D1.
 * A text deleted or rewritten after its page was read has had its delete or edit reach the index before this page
 * did: each page is read again from D1 once indexed, texts gone are removed and texts changed indexed as they are now.
 * Deletes and edits write D1 before the index, so one that this second read misses reaches the index after it.
 */
export async function rebuildKeywordIndex(env: Bindings, db: Db, knowledgeBaseId: string) {
  for await (const page of knowledgeBaseTexts(db, knowledgeBaseId)) {
    await indexKeywordTexts(env, knowledgeBaseId, page);
    const now = await textsOf(
      db,
      page.map((t) => t.id),
    );
    const gone = page.filter((t) => !now.has(t.id)).map((t) => t.id);
    const changed = page.flatMap((t) => {
      const text = now.get(t.id);
      return text !== undefined && text !== t.text ? [{ ...t, text }] : [];
    });
    if (gone.length) await removeKeywordTexts(env, knowledgeBaseId, gone);
    if (changed.length) await indexKeywordTexts(env, knowledgeBaseId, changed);
  }
  await knowledgeIndexOf(env, knowledgeBaseId).markKeywordsComplete();
}

/**
 * The searchable texts of these passages and FAQs (ids of either) as D1 holds them now, by id: a text node's text, an
 * FAQ's question and answer, as `knowledgeBaseTexts` reads them. Those deleted are missing.
 */
export async function textsOf(db: Db, ids: string[]): Promise<Map<string, string>> {
  const list = JSON.stringify(ids);
  const rows = await db.all<{ id: string; text: string }>(sql`
    select id, text from text_nodes where id in (select value from json_each(${list}))
    union all select id, question || char(10) || answer from faqs where id in (select value from json_each(${list}))`);
  return new Map(rows.map((r) => [r.id, r.text]));
}

/**
 * Every text of a knowledge base as its indexes take them (text nodes, then FAQs as question and
 * answer), read from D1 in pages of REBUILD_PAGE rows: for rebuilding an index from the record.
 */
export async function* knowledgeBaseTexts(db: Db, knowledgeBaseId: string): AsyncGenerator<IndexedText[]> {
  for (const table of ["text_nodes", "faqs"] as const) {
    for (let after = 0; ; ) {
      const rows = await db.all<{ rowid: number; id: string; text: string; source: string }>(
        table === "text_nodes"
          ? sql`select rowid, id, text, file_id as source from text_nodes
              where knowledge_base_id = ${knowledgeBaseId} and rowid > ${after} order by rowid limit ${REBUILD_PAGE}`
          : sql`select rowid, id, question || char(10) || answer as text, id as source from faqs
              where knowledge_base_id = ${knowledgeBaseId} and rowid > ${after} order by rowid limit ${REBUILD_PAGE}`,
      );
      if (!rows.length) break;
      after = rows[rows.length - 1].rowid;
      yield rows.map((r) => ({
        id: r.id,
        type: table === "faqs" ? "faq" : "text_node",
        sourceId: r.source,
        text: r.text,
      }));
    }
  }
}
