import type { Bindings } from "../../../env";
import { ModelError } from "../../llm/types";
import { openAiCompatibleEndpoint, type ModelRow } from "../../models";
import { localReranker } from "./local";
import { openAiCompatibleReranker } from "./openai-compatible";
import { workersAiReranker } from "./workers-ai";
import type { Reranker } from "./types";

export type { Reranker } from "./types";

/** The reranker behind a registered model record (STYLE 6: chosen by record, never by test flags). */
export async function rerankerFor(env: Bindings, row: ModelRow): Promise<Reranker> {
  switch (row.provider) {
    case "local":
      return localReranker;
    case "openai_compatible": {
      const { baseUrl, apiKey } = await openAiCompatibleEndpoint(row, env);
      return openAiCompatibleReranker({ baseUrl, apiKey, model: row.modelName });
    }
    case "workers_ai":
      return workersAiReranker(env.AI, row.modelName);
    default:
      throw new ModelError(`Provider ${row.provider} is not available.`, 400);
  }
}
