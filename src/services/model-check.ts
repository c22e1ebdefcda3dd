import type { Bindings } from "../env";
import { chatModelFor, complete, ModelError } from "./llm";
import { embeddingModelFor } from "./knowledge/embeddings";
import { rerankerFor } from "./knowledge/rerankers";
import type { ModelRow } from "./models";

/** A connection test waits this long for the provider (completions wait up to 60 s; a test should tell sooner). */
export const CONNECTION_TEST_TIMEOUT_MS = 15_000;

export interface ConnectionTest {
  ok: boolean;
  durationMs: number;
  /** What happened, in words a person can act on. */
  detail: string;
  /** A short proof of the answer: the reply's start, the vector size, the scores. */
  sample: string | null;
}

/**
 * Asks the model one small thing its kind does (a short reply, one vector, two scores) and reports
 * whether it answered as its record says it should. A failure is a result, not an error: the
 * provider's message (the key never in it) is what the person testing needs.
 */
export async function testConnection(
  env: Bindings,
  row: ModelRow,
  timeoutMs = CONNECTION_TEST_TIMEOUT_MS,
): Promise<ConnectionTest> {
  const started = Date.now();
  const signal = AbortSignal.timeout(timeoutMs);
  const result = (ok: boolean, detail: string, sample: string | null = null): ConnectionTest => ({
    ok,
    durationMs: Date.now() - started,
    detail,
    sample,
  });
  const timedOut = new Promise<never>((_, reject) =>
    signal.addEventListener("abort", () =>
      reject(new ModelError(`The model provider did not answer within ${timeoutMs / 1000} s.`, 504)),
    ),
  );
  try {
    const check = async (): Promise<ConnectionTest> => {
      if (row.kind === "llm") {
        const model = await chatModelFor(env, row);
        const { content } = await complete(model, {
          messages: [{ role: "user", content: "Reply with the word OK." }],
          maxTokens: 8,
          signal,
        });
        return content.trim()
          ? result(true, "The model answered.", content.trim().slice(0, 200))
          : result(false, "The model answered with no text.");
      }
      if (row.kind === "embedding") {
        const model = await embeddingModelFor(env, row);
        const [vector] = await model.embed(["connection test"], "query");
        if (vector?.length !== model.dimensions)
          return result(
            false,
            `The model returned a vector of ${vector?.length ?? 0} numbers; its record says ${model.dimensions}.`,
          );
        return result(true, "The model returned a vector of the expected size.", `${vector.length} dimensions`);
      }
      const reranker = await rerankerFor(env, row);
      const scores = await reranker.rerank("connection test", ["connection test", "something else"]);
      if (scores.length !== 2 || scores.some((s) => !Number.isFinite(s)))
        return result(false, "The reranker did not return a score per document.");
      return result(true, "The reranker scored the documents.", scores.map((s) => s.toFixed(2)).join(", "));
    };
    return await Promise.race([check(), timedOut]);
  } catch (err) {
    if (err instanceof ModelError) return result(false, err.message);
    return result(false, `The provider's answer could not be read: ${String((err as Error)?.message ?? err)}`);
  }
}
