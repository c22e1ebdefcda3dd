import { postJson } from "../embeddings/openai-compatible";
import { ModelError } from "../../llm/types";
import type { Reranker } from "./types";

export interface OpenAiCompatibleRerankerOptions {
  /** Up to and including the version segment, e.g. `https://api.jina.ai/v1`. */
  baseUrl: string;
  apiKey: string | null;
  /** Model name at the provider. */
  model: string;
  /** Limit for one request (default 30 s). */
  timeoutMs?: number;
}

/**
 * A `/rerank` endpoint in the Cohere / Jina shape (also served by vLLM, TEI, LocalAI, ...):
 * `{model, query, documents, top_n}` answers `{results: [{index, relevance_score}]}`, best first.
 */
export function openAiCompatibleReranker(o: OpenAiCompatibleRerankerOptions): Reranker {
  return {
    async rerank(query, documents) {
      if (documents.length === 0) return [];
      const url = `${o.baseUrl.replace(/\/+$/, "")}/rerank`;
      const body = await postJson(
        url,
        o.apiKey,
        { model: o.model, query, documents, top_n: documents.length },
        "results",
        o.timeoutMs,
      );
      if (!Array.isArray(body.results)) throw new ModelError("The reranker answered without results.", 502);
      const scores: number[] = documents.map(() => 0);
      for (const r of body.results as { index?: unknown; relevance_score?: unknown }[]) {
        if (!Number.isInteger(r.index) || typeof r.relevance_score !== "number")
          throw new ModelError("The reranker answered with a malformed result.", 502);
        const index = r.index as number;
        if (index < 0 || index >= documents.length)
          throw new ModelError(`The reranker answered for document ${index} of ${documents.length}.`, 502);
        scores[index] = r.relevance_score;
      }
      return toUnitRange(scores);
    },
  };
}

/**
 * Cohere and Jina score in 0..1, but some servers return raw cross-encoder logits. Those go through
 * the logistic function, for the whole answer at once so that the order never changes.
 */
export function toUnitRange(scores: number[]): number[] {
  if (scores.every((s) => s >= 0 && s <= 1)) return scores;
  return scores.map((s) => 1 / (1 + Math.exp(-s)));
}
