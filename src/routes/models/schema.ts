import { z } from "@hono/zod-openapi";
import { NameField } from "../../lib/openapi";
import { MODEL_PROVIDERS } from "../../services/records/models";

export const ModelWrite = z.object({
  name: NameField("Display name", "GPT-4o mini"),
  provider: z
    .enum(MODEL_PROVIDERS)
    .openapi({ description: "local, openai_compatible or workers_ai", example: "openai_compatible" }),
  modelName: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .openapi({ description: "Model name at the provider", example: "gpt-4o-mini" }),
  baseUrl: z
    .url({ protocol: /^https?$/, error: "Must be an http(s) URL" })
    .max(2000)
    .nullable()
    .optional()
    .openapi({
      description:
        "http(s) endpoint; required for openai_compatible (a local server such as http://localhost:11434/v1 works too)",
      example: "https://api.openai.com/v1",
    }),
  apiKey: z
    .string()
    .min(1)
    .max(1000)
    .nullable()
    .optional()
    .openapi({ description: "Write-only, encrypted at rest; null removes it", example: "sk-..." }),
  dimensions: z.number().int().min(1).max(8192).nullable().optional().openapi({
    description: "Embedding models only: vector size, required unless the provider is local",
    example: 1536,
  }),
});

export const ModelPatch = ModelWrite.partial();
