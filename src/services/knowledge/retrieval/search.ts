import { fieldError } from "../../../lib/errors";
import { getModel, modelById, type ModelRow } from "../../models";
import type { Bindings, Db } from "../../../env";
import type { KnowledgeBaseRow } from "../knowledge-bases";
import { embedderOf } from "../content";
import { isKnowledgeBaseModel } from "../embeddings/knowledge-base";
import { knowledgeIndexOf, textsOf } from "./knowledge-index";
import { feedbackPassages, meanDirection, steered } from "./feedback";
import type { IndexSearch } from "../../../../durable-objects/vector-index";
import { rerankerFor } from "../rerankers";
import { vectorStoreFor, type VectorFilter } from "../vector-store";
import { chatModelFor, complete } from "../../llm";
import type { QueryScope } from "../query-scope";
import { allows, sourceFilter, type SourceFilter } from "./scope";
import { matchExpression, weightedQueryTerms } from "./terms";
import { loadHits, type SearchHit } from "./hits";

export type SearchMethod = "hybrid" | "keyword" | "vector";
export type { SearchHit } from "./hits";

export interface SearchOptions {
  query: string;
  method?: SearchMethod;
  /** Overrides each base's enableRerank for this search (the console's search tester compares both). */
  rerank?: boolean;
  scope?: QueryScope;
  /** Results overall; each knowledge base also keeps at most its own numberOfRetrievedChunks. */
  limit: number;
  /** The language model that writes HyDE's hypothetical answer (enableHyde), as stored on an assistant (checked when
   * it was stored); the built-in one when absent. */
  languageModelId?: string | null;
  /**
   * A language model the caller names for this search instead (the assistant search's `largeLanguageModel`): used only
   * when the organization may use it, else 400 naming the field before any model is asked. Read unchecked, any
   * organization's model (and its provider key) would answer.
   */
  requestedLanguageModel?: { id: string; organizationId: string };
  /** Filled with the milliseconds each stage took (summed over bases), for a Server-Timing header. */
  timings?: Record<string, number>;
}

/** A candidate before its text is read: a text node (source: its file) or an FAQ (source: itself). */
interface Candidate {
  id: string;
  type: "text_node" | "faq";
  source: string;
  score: number;
}

/** A fused candidate, with the better of its two searches' own evidence for it (1 for a first result). */
type Fused = Candidate & { evidence: number };

const RRF_K = 60;
const LOCAL_LLM = "00000000-0000-7000-8000-000000000001";
/** Raw keyword scores (bm25, larger is better once negated) mapped into 0..1 by s / (s + this). */
const KEYWORD_HALF_SCORE = 2;

/**
 * Hybrid retrieval over knowledge bases, best first, scores in 0..1. Per base: keyword search
 * (BM25 over the base's own inverted index; FTS5 while that is being filled) and vector search (the
 * base's embedding model and vector store, steered by the keyword leg's best passages) each return a
 * candidate list; `hybrid` fuses them by reciprocal rank fusion when enableRrf (else by the mean of
 * their normalized scores) and, when enableRerank, reorders the fused list with the base's reranker
 * (its score, tempered by the better of the two ranks, becomes the result's). Results at or below similarityCutoff are
 * dropped, each base keeps
 * numberOfRetrievedChunks, and the text nodes are widened by sentenceWindowSize sentences.
 */
export async function searchKnowledge(
  env: Bindings,
  db: Db,
  bases: KnowledgeBaseRow[],
  options: SearchOptions,
): Promise<SearchHit[]> {
  const method = options.method ?? "hybrid";
  const languageModel = await hydeModel(db, bases, options);
  // One hypothetical answer per search, however many of its bases use HyDE.
  let hyde: Promise<string> | undefined;
  const hypothesis = languageModel
    ? () => (hyde ??= hypotheticalAnswer(env, languageModel, options.query))
    : () => null;
  const timed = async <T>(stage: string, run: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await run();
    } finally {
      if (options.timings) options.timings[stage] = (options.timings[stage] ?? 0) + performance.now() - started;
    }
  };
  const perBase = await Promise.all(
    bases.map(async (kb) => {
      const filter = await sourceFilter(db, options.scope ?? { mode: "unrestricted" }, kb.id);
      if (filter.nothing || kb.vectorDatabaseType) return [];
      const pool = Math.min(100, Math.max(30, 3 * Math.max(kb.numberOfRetrievedChunks, options.limit)));
      const [keyword, vector] = await timed("index", () =>
        candidates(env, db, kb, options, method, filter, pool, hypothesis),
      );
      const fused = method === "hybrid" ? fuse(keyword, vector, kb.enableRrf ?? true) : null;
      let ranked: Candidate[] = fused ?? (method === "keyword" ? keyword : vector);
      if (fused?.length && (options.rerank ?? kb.enableRerank))
        ranked = await timed("rerank", () => rerank(env, db, kb, options.query, fused.slice(0, pool)));
      return ranked
        .filter((c) => c.score > kb.similarityCutoff)
        .slice(0, kb.numberOfRetrievedChunks)
        .map((c) => ({ ...c, kb }));
    }),
  );
  const best = perBase
    .flat()
    .sort((a, b) => b.score - a.score)
    .slice(0, options.limit);
  return timed("hits", () => loadHits(db, best));
}

/** A Server-Timing header value from stage timings. */
export const serverTiming = (timings: Record<string, number>) =>
  Object.entries(timings)
    .map(([stage, ms]) => `${stage};dur=${ms.toFixed(1)}`)
    .join(", ");

/**
 * The keyword and vector candidates of one base. The base's index object (durable-objects/vector-index.ts)
 * answers both in one call when it can: its keyword index, and with the built-in embedding model the
 * query embedded and, without Vectorize, scanned there too. A remote model embeds the query here first;
 * with Vectorize the vectors are searched there. A base whose keyword index is still being filled
 * (content from before it existed) is searched through FTS5 in D1 meanwhile.
 */
async function candidates(
  env: Bindings,
  db: Db,
  kb: KnowledgeBaseRow,
  options: SearchOptions,
  method: SearchMethod,
  filter: SourceFilter,
  pool: number,
  hypothesis: () => Promise<string> | null,
): Promise<[Candidate[], Candidate[]]> {
  const vectorFilter: VectorFilter = {};
  if (filter.allow || filter.deny.size)
    vectorFilter.sourceIds = {
      in: filter.allow ? [...filter.allow] : undefined,
      notIn: filter.deny.size ? [...filter.deny] : undefined,
    };
  const request: IndexSearch = { filter: vectorFilter };
  if (method !== "vector")
    request.keyword = {
      terms: weightedQueryTerms(options.query).map((t) => ({ term: t.stem, weight: t.weight })),
      topK: pool,
    };
  if (method !== "keyword") {
    const answer = kb.enableHyde ? hypothesis() : null;
    const text = answer ? `${options.query}\n${await answer}` : options.query;
    const embedder = await embedderOf(env, db, kb);
    const scan = !env.VECTORIZE;
    request.vector = isKnowledgeBaseModel(embedder)
      ? { topK: pool, text, scan }
      : { topK: pool, values: (await embedder.embed([text], "query"))[0], scan };
  }
  const index = knowledgeIndexOf(env, kb.id);
  const found = await index.search(request);
  let vector = found.vector;
  if (request.vector && env.VECTORIZE) {
    const store = vectorStoreFor(env);
    let values = request.vector.values ?? found.embedding;
    // Feedback from the keyword leg, as the local store applies it inside the index object.
    const passages = feedbackPassages(env);
    if (values && passages && found.keyword?.length)
      values = steered(
        values,
        meanDirection(
          await store.getByIds(
            kb.id,
            found.keyword.slice(0, passages).map((m) => m.id),
          ),
        ),
      );
    vector = values ? await store.query(kb.id, values, { topK: pool, filter: vectorFilter }) : [];
  }
  let keyword: Candidate[] = [];
  if (found.keyword)
    keyword = found.keyword.map((m) => ({ id: m.id, type: m.type, source: m.sourceId, score: m.score }));
  else if (request.keyword) {
    keyword = await keywordCandidatesFts(env, kb, options.query, filter, pool);
    await requestKeywordRebuild(env, kb.id);
  }
  return [
    // Raw BM25 (larger is better) into 0..1.
    keyword.map((c) => ({ ...c, score: c.score / (c.score + KEYWORD_HALF_SCORE) })),
    vector
      .filter((m) => m.score > 0 && allows(filter, m.sourceId))
      .map((m) => ({ id: m.id, type: m.type, source: m.sourceId, score: Math.min(1, m.score) })),
  ];
}

/** Asks the ingestion queue to fill the base's keyword index, at most once per ten minutes (a lease in the index). */
async function requestKeywordRebuild(env: Bindings, knowledgeBaseId: string) {
  if (await knowledgeIndexOf(env, knowledgeBaseId).claimKeywordRebuild())
    await env.INGESTION_QUEUE.send({ kind: "keywords", knowledgeBaseId });
}

/** The keyword leg through FTS5 in D1, raw BM25 (larger is better): for a base whose own index is still being filled.
 * */
async function keywordCandidatesFts(
  env: Bindings,
  kb: KnowledgeBaseRow,
  query: string,
  filter: SourceFilter,
  pool: number,
): Promise<Candidate[]> {
  const match = matchExpression(query, kb.id);
  if (!match) return [];
  // One statement for text nodes and FAQs. Unrestricted, FTS5 sorts its own matches and only the
  // best rows are joined; restricted, the joined rows are filtered in SQL, so allowed rows further
  // down are not lost. Either way each row's knowledge base is checked (see the prefixes in terms.ts).
  const restricted = !!filter.allow || filter.deny.size > 0;
  const part = (table: "text_nodes" | "faqs", type: Candidate["type"], source: string) =>
    restricted
      ? `select t.id, ${source} as source, '${type}' as type, -bm25(${table}_fts) as score
         from ${table}_fts join ${table} as t on t.rowid = ${table}_fts.rowid
         where ${table}_fts match ?1 and t.knowledge_base_id = ?3
           and (?4 = 0 or ${source} in (select value from json_each(?5)))
           and ${source} not in (select value from json_each(?6))
         order by bm25(${table}_fts) limit ?2`
      : `select t.id, ${source} as source, '${type}' as type, -m.score as score
         from (select rowid, bm25(${table}_fts) as score from ${table}_fts
               where ${table}_fts match ?1 order by score limit ?2) as m
         join ${table} as t on t.rowid = m.rowid where t.knowledge_base_id = ?3`;
  const { results } = await env.DB.prepare(
    `select * from (${part("text_nodes", "text_node", "t.file_id")}) union all select * from ` +
      `(${part("faqs", "faq", "t.id")}) order by score desc limit ?2`,
  )
    .bind(
      match,
      pool,
      kb.id,
      ...(restricted
        ? [
            filter.allow ? 1 : 0,
            JSON.stringify(filter.allow ? [...filter.allow] : []),
            JSON.stringify([...filter.deny]),
          ]
        : []),
    )
    .all<Candidate>();
  return results;
}

/**
 * The model that writes HyDE's answer: the requested one, checked against the organization (400 when it may not use
 * it, whether or not a base uses HyDE), else the stored or built-in one; null when no base uses HyDE.
 */
async function hydeModel(db: Db, bases: KnowledgeBaseRow[], options: SearchOptions): Promise<ModelRow | null> {
  const requested = options.requestedLanguageModel;
  if (requested) {
    const row = await getModel(db, requested.organizationId, requested.id, "llm");
    if (!row)
      throw fieldError("largeLanguageModel", "No language model with this id is available to the organization.");
    return row;
  }
  if (!bases.some((kb) => kb.enableHyde)) return null;
  return modelById(db, options.languageModelId ?? LOCAL_LLM);
}

/** HyDE: the language model's short answer to the question, searched for together with the question. */
async function hypotheticalAnswer(env: Bindings, row: ModelRow, query: string): Promise<string> {
  const model = await chatModelFor(env, row);
  const system =
    "Write a short passage, as a help-centre article would, that answers the question. Do not say you are unsure.";
  const { content } = await complete(model, {
    messages: [
      { role: "system", content: system },
      { role: "user", content: query },
    ],
    maxTokens: 200,
  });
  return content;
}

/**
 * Reciprocal rank fusion (each list contributes 1 / (60 + rank)), normalized so that the first of
 * both lists scores 1; without RRF, the mean of the two normalized scores.
 */
function fuse(keyword: Candidate[], vector: Candidate[], rrf: boolean): Fused[] {
  const merged = new Map<string, Fused>();
  const add = (list: Candidate[]) =>
    list.forEach((c, rank) => {
      const part = rrf ? 1 / (RRF_K + rank + 1) / (2 / (RRF_K + 1)) : c.score / 2;
      const seen = merged.get(c.id);
      const evidence = Math.max(seen?.evidence ?? 0, 2 * part); // this search's part, scaled so its first result is 1
      merged.set(c.id, seen ? { ...seen, score: seen.score + part, evidence } : { ...c, score: part, evidence });
    });
  add(keyword);
  add(vector);
  return [...merged.values()].sort((a, b) => b.score - a.score);
}

async function rerank(
  env: Bindings,
  db: Db,
  kb: KnowledgeBaseRow,
  query: string,
  candidates: Fused[],
): Promise<Candidate[]> {
  const row = await modelById(db, kb.rerankerModelId);
  if (!row) return candidates;
  const texts = await textsOf(
    db,
    candidates.map((c) => c.id),
  );
  const scores = await (await rerankerFor(env, row)).rerank(
    query,
    candidates.map((c) => texts.get(c.id) ?? ""),
  );
  // The reranker's score, tempered by the first stage's evidence (a quarter weight at its lowest): the
  // reranker judges each passage alone, the searches saw how it ranked among the others. The better
  // of the two ranks counts, so a passage one search misses is not halved for it. A passage the
  // reranker finds unrelated (0) stays at 0, so the cutoff still drops it.
  // The local reranker is lexical, like the keyword search: on CISI its score alone undid the hybrid's
  // gain (docs/decisions.md, "Knowledge bases and retrieval"), so it is averaged with the fused score instead.
  if (row.provider !== "local")
    return candidates
      .map((c, i) => ({ ...c, score: scores[i] * (0.25 + 0.75 * c.evidence) }))
      .sort((a, b) => b.score - a.score);
  const top = candidates[0]?.score || 1;
  return candidates
    .map((c, i) => ({ ...c, score: scores[i] > 0 ? 0.5 * scores[i] + 0.5 * (c.score / top) : 0 }))
    .sort((a, b) => b.score - a.score);
}
