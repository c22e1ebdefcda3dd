import { z } from "@hono/zod-openapi";
import type { Bindings } from "../../env";
import { MODEL_KINDS, MODEL_PROVIDERS } from "../../db/schema";
import { NameField, Timestamps } from "../../lib/openapi";
import { cannotOpen, maskSecret } from "../../lib/crypto";
import { timestampsOf } from "../../lib/time";
import { modelApiKey, modelUnavailable, type ModelRow, UNAVAILABLE } from "../models";

export const ModelSchema = z
  .object({
    id: z.string().openapi({
      description: "The model's id (fixed for built-in models)",
      example: "00000000-0000-7000-8000-000000000001",
    }),
    name: z.string().openapi({
      description: "The model's display name; the AI gateway's `model` takes it as well as the id",
      example: "Local LLM",
    }),
    kind: z.enum(MODEL_KINDS).openapi({ description: "llm, embedding or reranker", example: "llm" }),
    provider: z.enum(MODEL_PROVIDERS).openapi({ description: "Where the model runs", example: "local" }),
    modelName: z.string().openapi({ description: "Model name at the provider", example: "local-llm" }),
    baseUrl: z.string().nullable().openapi({ description: "Endpoint of an OpenAI-compatible provider", example: null }),
    dimensions: z.number().int().nullable().openapi({ description: "Vector size (embedding models)", example: null }),
    hasApiKey: z
      .boolean()
      .openapi({ description: "Whether an API key is stored (the key itself is never returned)", example: false }),
    apiKeyPreview: z.string().nullable().openapi({ description: "Masked API key", example: "…wxyz" }),
    isBuiltIn: z
      .boolean()
      .openapi({ description: "Built-in models belong to no organization and cannot be changed", example: true }),
    available: z.boolean().openapi({
      description:
        "Whether the model can answer in this deployment; an assistant cannot be saved on one that cannot (400)",
      example: true,
    }),
    unavailableReason: z
      .string()
      .nullable()
      .openapi({
        description:
          "Why it cannot, when `available` is false: e.g. a Workers AI model without the AI binding, or an API " +
          "key that cannot be read",
        example: null,
      }),
    unavailableCode: z
      .enum(Object.keys(UNAVAILABLE) as [keyof typeof UNAVAILABLE, ...(keyof typeof UNAVAILABLE)[]])
      .nullable()
      .openapi({
        description:
          "`unavailableReason` as a code, for a client that says it in its own language: `no_ai_binding` (Workers AI " +
          "without the AI binding), `no_base_url`, `no_encryption_key` (a stored API key and no ENCRYPTION_KEY), " +
          "`key_unreadable` (ENCRYPTION_KEY changed since the key was stored); null when available",
        example: null,
      }),
    organization: z
      .string()
      .nullable()
      .openapi({ description: "Owning organization; null for built-in models", example: null }),
    ...Timestamps,
  })
  .openapi("Model");

export type ModelRecord = z.infer<typeof ModelSchema>;

/** Row -> record. The API key is decrypted only to mask it; it never leaves in clear. */
export async function modelRecord(row: ModelRow, env: Pick<Bindings, "ENCRYPTION_KEY" | "AI">): Promise<ModelRecord> {
  const [plain, unavailableCode] = await Promise.all([
    modelApiKey(row, env).catch((err) => {
      if (!cannotOpen(err)) throw err;
      return null;
    }),
    modelUnavailable(row, env),
  ]);
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    provider: row.provider,
    modelName: row.modelName,
    baseUrl: row.baseUrl,
    dimensions: row.dimensions,
    hasApiKey: !!row.apiKeyEncrypted,
    apiKeyPreview: row.apiKeyEncrypted ? (maskSecret(plain) ?? "••••") : null,
    isBuiltIn: row.organizationId === null,
    available: unavailableCode === null,
    unavailableReason: unavailableCode && UNAVAILABLE[unavailableCode],
    unavailableCode,
    organization: row.organizationId,
    ...timestampsOf(row),
  };
}

// Request bodies, beside the record (docs/decisions.md, "One word per concept, and where a record's shape is
// written").

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

/** A body as the service writes it: `apiKey` is handed over on its own, to be sealed. */
export type ModelCreateInput = Omit<z.output<typeof ModelWrite>, "apiKey">;
