import type { Bindings } from "../../../env";
import { ModelError } from "../../llm/types";
import { openAiCompatibleEndpoint, type ModelRow } from "../../models";
import { localEmbeddingModel } from "./local";
import { openAiCompatibleEmbeddingModel } from "./openai-compatible";
import { workersAiEmbeddingModel } from "./workers-ai";
import type { EmbeddingModel } from "./types";

export type { EmbeddingModel } from "./types";

/** The embedding model behind a registered model record (STYLE 6: chosen by record, never by test flags). */
export async function embeddingModelFor(env: Bindings, row: ModelRow): Promise<EmbeddingModel> {
  switch (row.provider) {
    case "local":
      return localEmbeddingModel;
    case "openai_compatible": {
      const { baseUrl, apiKey } = await openAiCompatibleEndpoint(row, env);
      return openAiCompatibleEmbeddingModel({
        baseUrl,
        apiKey,
        model: row.modelName,
        dimensions: dimensionsOf(row),
      });
    }
    case "workers_ai":
      return workersAiEmbeddingModel(env.AI, row.modelName, dimensionsOf(row));
    default:
      throw new ModelError(`Provider ${row.provider} is not available.`, 400);
  }
}

/** Remote embedding records must declare their dimensions (checkModelRules); old rows may not. */
function dimensionsOf(row: ModelRow): number {
  if (!row.dimensions) throw new ModelError(`Embedding model "${row.name}" has no dimensions.`, 400);
  return row.dimensions;
}
