import { ModelError } from "../../llm/types";
import { checkedVector, EMBEDDING_BATCH_SIZE } from "./openai-compatible";
import type { EmbeddingModel } from "./types";

/** The part of the AI binding used here; its generated types list every model, which we do not need. */
interface AiRunner {
  run(model: string, inputs: Record<string, unknown>): Promise<unknown>;
}

/**
 * Text embeddings on Workers AI (`env.AI`), e.g. `@cf/baai/bge-m3`: `{text: [...]}` answers
 * `{shape, data: number[][]}`. The bge models take up to 100 texts per call, so batches stay below.
 */
export function workersAiEmbeddingModel(ai: Ai | undefined, model: string, dimensions: number): EmbeddingModel {
  if (!ai) throw new ModelError("Workers AI is not configured (no AI binding)", 400);
  const runner = ai as unknown as AiRunner;
  return {
    dimensions,
    async embed(texts) {
      const out: number[][] = [];
      for (let i = 0; i < texts.length; i += EMBEDDING_BATCH_SIZE) {
        const batch = texts.slice(i, i + EMBEDDING_BATCH_SIZE);
        let result: { data?: unknown } | null;
        try {
          result = (await runner.run(model, { text: batch })) as { data?: unknown } | null;
        } catch (err) {
          throw new ModelError(`Workers AI failed: ${String((err as Error)?.message ?? err).slice(0, 300)}`, 502);
        }
        const data = Array.isArray(result?.data) ? result.data : null;
        if (!data || data.length !== batch.length)
          throw new ModelError(`Workers AI returned ${data?.length ?? "no"} vectors for ${batch.length} texts.`, 502);
        out.push(...data.map((v) => checkedVector(v, dimensions)));
      }
      return out;
    },
  };
}
