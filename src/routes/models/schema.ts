import { z } from "@hono/zod-openapi";
import { MODEL_KINDS, MODEL_PROVIDERS } from "../../db/schema";
import { Timestamp } from "../../lib/openapi";

export const ModelSchema = z
  .object({
    id: z.string().openapi({ example: "00000000-0000-7000-8000-000000000001" }),
    name: z.string().openapi({ example: "Local LLM" }),
    kind: z.enum(MODEL_KINDS).openapi({ description: "llm, embedding or reranker", example: "llm" }),
    provider: z.enum(MODEL_PROVIDERS).openapi({ description: "Where the model runs", example: "local" }),
    modelName: z.string().openapi({ description: "Model name at the provider", example: "local-llm" }),
    baseUrl: z.string().nullable().openapi({ description: "Endpoint of an OpenAI-compatible provider", example: null }),
    dimensions: z.number().int().nullable().openapi({ description: "Vector size (embedding models)", example: null }),
    hasApiKey: z
      .boolean()
      .openapi({ description: "Whether an API key is stored (the key itself is never returned)", example: false }),
    apiKeyPreview: z.string().nullable().openapi({ description: "Masked API key", example: "sk-a…wxyz" }),
    isBuiltIn: z
      .boolean()
      .openapi({ description: "Built-in models belong to no organization and cannot be changed", example: true }),
    available: z.boolean().openapi({
      description:
        "Whether the model can answer in this deployment; an assistant cannot be saved on one that cannot (400)",
      example: true,
    }),
    unavailableReason: z.string().nullable().openapi({
      description:
        "Why it cannot, when `available` is false: e.g. a Workers AI model without the AI binding, or an API key that cannot be read",
      example: null,
    }),
    organization: z
      .string()
      .nullable()
      .openapi({ description: "Owning organization; null for built-in models", example: null }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("Model");

export const ModelWrite = z.object({
  name: z.string().trim().min(1).max(200).openapi({ description: "Display name", example: "GPT-4o mini" }),
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
