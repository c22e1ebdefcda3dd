import { ModelError } from "../../llm/types";
import { toUnitRange } from "./openai-compatible";
import type { Reranker } from "./types";

/** The part of the AI binding used here; its generated types list every model, which we do not need. */
interface AiRunner {
  run(model: string, inputs: Record<string, unknown>): Promise<unknown>;
}

/**
 * Reranking on Workers AI (`env.AI`), e.g. `@cf/baai/bge-reranker-base`: `{query, contexts:
 * [{text}]}` answers `{response: [{id, score}]}`, `id` being the context's position.
 */
export function workersAiReranker(ai: Ai | undefined, model: string): Reranker {
  if (!ai) throw new ModelError("Workers AI is not configured (no AI binding)", 400);
  const runner = ai as unknown as AiRunner;
  return {
    async rerank(query, documents) {
      if (documents.length === 0) return [];
      let result: { response?: unknown } | null;
      try {
        const inputs = { query, contexts: documents.map((text) => ({ text })), top_k: documents.length };
        result = (await runner.run(model, inputs)) as { response?: unknown } | null;
      } catch (err) {
        throw new ModelError(`Workers AI failed: ${String((err as Error)?.message ?? err).slice(0, 300)}`, 502);
      }
      if (!Array.isArray(result?.response))
        throw new ModelError("Workers AI answered the rerank without a response.", 502);
      const scores: number[] = documents.map(() => 0);
      for (const r of result.response as { id?: unknown; score?: unknown }[]) {
        const id = r.id as number;
        if (!Number.isInteger(id) || id < 0 || id >= documents.length || typeof r.score !== "number") {
          throw new ModelError("Workers AI answered the rerank with a malformed result.", 502);
        }
        scores[id] = r.score;
      }
      return toUnitRange(scores);
    },
  };
}
