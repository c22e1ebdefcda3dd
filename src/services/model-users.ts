// What uses an organization's model: the assistants and knowledge bases that keep it from being deleted, and the
// knowledge bases whose indexed content fixes what an embedding model computes (so a change to the model is checked
// here). All of it is control plane (`DB`).
import { and, eq, or } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import type { Bindings, Db } from "../env";
import { chatbots, knowledgeBases } from "../db/schema";
import { badRequest, fieldError } from "../lib/errors";
import { holdsIndexedContent } from "./knowledge/knowledge-bases";
import type { ModelCreateInput, ModelPatch } from "./records/models";
import { checkModelRules, getOwnModel, type ModelKind, type ModelRow, updateModel } from "./models";

/** Names shown in a refusal: the first five. */
const SHOWN = 5;

/** Names of the assistants that still use a model. */
async function assistantsUsing(db: Db, id: string): Promise<string[]> {
  const rows = await db
    .select({ name: chatbots.name })
    .from(chatbots)
    .where(
      or(
        eq(chatbots.largeLanguageModelId, id),
        eq(chatbots.fallbackLargeLanguageModelId, id),
        eq(chatbots.embeddingModelId, id),
        eq(chatbots.rerankerModelId, id),
      ),
    )
    .limit(SHOWN);
  return rows.map((r) => r.name);
}

/**
 * Names of the knowledge bases that use an organization's model (`indexed`: only those holding indexed content). They
 * are the organization's own (a model of another organization does not exist for it), read by its index.
 */
async function knowledgeBasesUsing(
  db: Db,
  model: Pick<ModelRow, "id" | "organizationId">,
  indexed = false,
): Promise<string[]> {
  // Built-in models are neither changed nor deleted.
  if (model.organizationId === null) return [];
  const rows = await db
    .select({ name: knowledgeBases.name })
    .from(knowledgeBases)
    .where(
      and(
        eq(knowledgeBases.organizationId, model.organizationId),
        or(eq(knowledgeBases.embeddingModelId, model.id), eq(knowledgeBases.rerankerModelId, model.id)),
        indexed ? holdsIndexedContent(db) : undefined,
      ),
    )
    .limit(SHOWN);
  return rows.map((r) => r.name);
}

/**
 * A model still used by an assistant or a knowledge base cannot be deleted (400 `model_in_use`, naming them): their
 * keys would refuse the delete, and they would be left without a model.
 */
export async function requireModelUnused(db: Db, model: Pick<ModelRow, "id" | "organizationId">): Promise<void> {
  const [assistants, bases] = await Promise.all([assistantsUsing(db, model.id), knowledgeBasesUsing(db, model)]);
  const users = [
    ...(assistants.length ? [`assistants (${assistants.join(", ")})`] : []),
    ...(bases.length ? [`knowledge bases (${bases.join(", ")})`] : []),
  ];
  if (!users.length) return;
  throw badRequest(
    `This model is still used by ${users.join(" and ")}; give them another model, or delete them, first.`,
    undefined,
    "model_in_use",
  );
}

/** What an embedding model computes: its vectors change with any of these. */
const COMPUTES = ["provider", "modelName", "dimensions"] as const;

/**
 * An embedding model's provider, model name and dimensions cannot change while a knowledge base using it holds
 * indexed files or FAQs (400 naming the field), as the knowledge base's own `embeddingModel` cannot: its stored
 * vectors were made by the model as it is, and questions embedded by another model cannot be compared with them.
 */
export async function requireEmbeddingUnchanged(db: Db, current: ModelRow, body: Partial<ModelCreateInput>) {
  if (current.kind !== "embedding") return;
  const field = COMPUTES.find((f) => body[f] !== undefined && body[f] !== current[f]);
  if (!field) return;
  const bases = await knowledgeBasesUsing(db, current, true);
  if (!bases.length) return;
  throw fieldError(
    field,
    `Cannot change while knowledge bases hold content indexed with this model (${bases.join(", ")}): their ` +
      "stored vectors would no longer match the questions' vectors. Create another embedding model instead.",
  );
}

/**
 * Changes the organization's model `id` of `kind` (404 when none; 403 for a built-in one) and returns it: the model
 * as it will be checked by the rules a new one meets, an embedding model's computation only while no knowledge base
 * holds content indexed with it (requireEmbeddingUnchanged); `apiKey` as updateModel takes it.
 */
export async function changeModel(
  db: Db,
  env: Pick<Bindings, "ENCRYPTION_KEY">,
  organizationId: string,
  kind: ModelKind,
  id: string,
  { apiKey, ...body }: z.output<typeof ModelPatch>,
): Promise<ModelRow> {
  const current = await getOwnModel(db, organizationId, id, kind);
  const merged = { ...current, ...body };
  checkModelRules(kind, {
    provider: merged.provider,
    baseUrl: merged.baseUrl ?? null,
    dimensions: merged.dimensions ?? null,
  });
  await requireEmbeddingUnchanged(db, current, body);
  return updateModel(db, env, current, body, apiKey);
}
