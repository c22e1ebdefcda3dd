import { and, asc, count, eq, isNull, or, sql } from "drizzle-orm";
import type { Bindings, Db } from "../env";
import { models, type MODEL_KINDS, type MODEL_PROVIDERS } from "../db/schema";
import { type PageWindow, paginate } from "../db/paginate";
import { cannotOpen, decryptSecret, encryptSecret } from "../lib/crypto";
import { usableSecret } from "../lib/placeholders";
import { conflict, fieldError, forbidden, notFound } from "../lib/errors";
import { credentialsStay } from "../lib/redirects";
import { ModelError } from "./llm/types";
import { rowById } from "../db/find";
import type { ModelCreateInput } from "./records/models";

export type ModelKind = (typeof MODEL_KINDS)[number];
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];
export type ModelRow = typeof models.$inferSelect;

/** Models an organization may use: the built-in ones (no organization) and its own. */
export const usableBy = (organizationId: string) =>
  or(isNull(models.organizationId), eq(models.organizationId, organizationId));

/** A model of `kind` the organization may use, or null (another organization's model does not exist). */
export async function getModel(db: Db, organizationId: string, id: string, kind: ModelKind): Promise<ModelRow | null> {
  return rowById(id, () =>
    db
      .select()
      .from(models)
      .where(and(eq(models.id, id), eq(models.kind, kind), usableBy(organizationId))),
  );
}

/** Built-in models only change with a migration, so an isolate reads each one once. */
const builtIns = new Map<string, ModelRow>();

/** A model by id (no organization check: for ids already stored on an assistant or knowledge base). */
export async function modelById(db: Db, id: string): Promise<ModelRow | null> {
  const known = builtIns.get(id);
  if (known) return known;
  const [row] = await db.select().from(models).where(eq(models.id, id));
  if (row && row.organizationId === null) builtIns.set(id, row);
  return row ?? null;
}

/** A model the organization may change: 404 when it cannot see it, 403 for a built-in model. */
export async function getOwnModel(db: Db, organizationId: string, id: string, kind: ModelKind): Promise<ModelRow> {
  const row = await getModel(db, organizationId, id, kind);
  if (!row) throw notFound();
  if (row.organizationId === null) throw forbidden("Built-in models cannot be changed.");
  return row;
}

/**
 * Model API keys in clear, by sealed value, per isolate: every reply asks its model, and WebCrypto's
 * decrypt costs the local runtime a turn of its event loop before the model is asked. A key stored
 * again is sealed anew (a fresh IV), so an entry never outlives the key it holds.
 */
const apiKeys = new Map<string, Promise<string>>();

/** The model's API key in clear, for calling its provider; null when none is stored. */
export async function modelApiKey(
  row: Pick<ModelRow, "apiKeyEncrypted">,
  env: Pick<Bindings, "ENCRYPTION_KEY">,
): Promise<string | null> {
  const sealed = row.apiKeyEncrypted;
  if (!sealed) return null;
  const cacheKey = `${env.ENCRYPTION_KEY ?? ""}\n${sealed}`;
  let key = apiKeys.get(cacheKey);
  if (!key) {
    key = decryptSecret(sealed, env.ENCRYPTION_KEY);
    key.catch(() => apiKeys.delete(cacheKey));
    if (apiKeys.size >= 1_000) apiKeys.clear();
    apiKeys.set(cacheKey, key);
  }
  return key;
}

/** The model's API key for calling its provider: one this deployment cannot open is the model's 400. */
export function providerApiKey(row: Pick<ModelRow, "apiKeyEncrypted" | "name">, env: Pick<Bindings, "ENCRYPTION_KEY">) {
  return modelApiKey(row, env).catch((err) => {
    if (!cannotOpen(err)) throw err;
    throw new ModelError(`The API key of model "${row.name}" cannot be decrypted; store it again.`, 400);
  });
}

/**
 * How an OpenAI-compatible model is called: its base URL and its API key in clear (null when none is stored). A
 * ModelError (400) when it has no base URL or its stored key cannot be decrypted (chat, embedding and reranker alike).
 */
export async function openAiCompatibleEndpoint(
  row: ModelRow,
  env: Pick<Bindings, "ENCRYPTION_KEY">,
): Promise<{ baseUrl: string; apiKey: string | null }> {
  if (!row.baseUrl) throw new ModelError(`Model "${row.name}" has no baseUrl.`, 400);
  return { baseUrl: row.baseUrl, apiKey: await providerApiKey(row, env) };
}

/** Why a model cannot answer in this deployment, as a code (for a client to say in its language) and in English. */
export const UNAVAILABLE = {
  no_ai_binding: "Workers AI is not available here: the AI binding ([ai] in wrangler.toml) is not configured.",
  no_base_url: "It has no baseUrl.",
  no_encryption_key: "Its API key cannot be read: ENCRYPTION_KEY is not configured.",
  key_unreadable: "Its API key cannot be decrypted (ENCRYPTION_KEY changed since it was stored): store the key again.",
} as const;
export type UnavailableCode = keyof typeof UNAVAILABLE;

/**
 * Why the model cannot answer in this deployment, or null when it can: a Workers AI model without
 * the AI binding (local development has none), an OpenAI-compatible one without its base URL or
 * whose stored API key cannot be read. Listed on the model's record and checked when an assistant
 * is saved on it (docs/decisions.md, "Honest model choices").
 */
export async function modelUnavailable(
  row: ModelRow,
  env: Pick<Bindings, "ENCRYPTION_KEY" | "AI">,
): Promise<UnavailableCode | null> {
  if (row.provider === "workers_ai" && !env.AI) return "no_ai_binding";
  if (row.provider !== "openai_compatible") return null;
  if (!row.baseUrl) return "no_base_url";
  if (!row.apiKeyEncrypted) return null;
  if (!usableSecret("ENCRYPTION_KEY", env.ENCRYPTION_KEY)) return "no_encryption_key";
  const readable = await modelApiKey(row, env).then(
    () => true,
    (err) => {
      if (!cannotOpen(err)) throw err;
      return false;
    },
  );
  return readable ? null : "key_unreadable";
}

/** The rules that span fields, checked on the model as it will be stored (create, PUT and PATCH). */
export function checkModelRules(
  kind: ModelKind,
  model: { provider: ModelProvider; baseUrl: string | null; dimensions: number | null },
) {
  if (model.provider === "openai_compatible" && !model.baseUrl)
    throw fieldError("baseUrl", "Required for an openai_compatible model.");
  if (kind !== "embedding" && model.dimensions !== null)
    throw fieldError("dimensions", "Only embedding models have dimensions.");
  if (kind === "embedding" && model.provider !== "local" && model.dimensions === null) {
    throw fieldError("dimensions", "Required for an embedding model unless the provider is local.");
  }
}

/** A page of the models of `kind` the organization may use: built-in ones first, then its own, oldest first. */
export function listModels(db: Db, organizationId: string, kind: ModelKind, window: PageWindow) {
  const where = and(eq(models.kind, kind), usableBy(organizationId));
  return paginate(window, db.select({ n: count() }).from(models).where(where), ({ limit, offset }) =>
    db
      .select()
      .from(models)
      .where(where)
      .orderBy(sql`${models.organizationId} is not null`, asc(models.createdAt), asc(models.id))
      .limit(limit)
      .offset(offset),
  );
}

/** Stores an organization's model; `apiKey` sealed (none when empty). */
export async function createModel(
  db: Db,
  env: Pick<Bindings, "ENCRYPTION_KEY">,
  organizationId: string,
  kind: ModelKind,
  values: ModelCreateInput,
  apiKey: string | null | undefined,
): Promise<ModelRow> {
  const apiKeyEncrypted = apiKey ? await encryptSecret(apiKey, env.ENCRYPTION_KEY) : null;
  const [row] = await db
    .insert(models)
    .values({ ...values, kind, organizationId, apiKeyEncrypted })
    .returning();
  return row;
}

/**
 * Changes a model; `apiKey` undefined keeps the stored key, null removes it. Pointed at another server
 * (credentialsStay), the stored key stays behind unless the change gives a new one: it was typed for the provider the
 * model had, and whoever may edit the base URL could otherwise collect it at their own server (as tools and webhooks,
 * docs/decisions.md, "Credentials stay with their server"). The write applies only while the base URL is as read
 * (409 otherwise): a change at once that moves the model would otherwise keep the key the move dropped.
 */
export async function updateModel(
  db: Db,
  env: Pick<Bindings, "ENCRYPTION_KEY">,
  current: ModelRow,
  values: Partial<ModelCreateInput>,
  apiKey: string | null | undefined,
): Promise<ModelRow> {
  const stay = values.baseUrl === undefined || credentialsStay(current.baseUrl, values.baseUrl);
  const given =
    apiKey === undefined ? undefined : apiKey === null ? null : await encryptSecret(apiKey, env.ENCRYPTION_KEY);
  // Only a write whose key follows from the base URL (a new key, a move) depends on it as read.
  const asRead = apiKey || values.baseUrl !== undefined ? sameBaseUrl(current.baseUrl) : undefined;
  const [row] = await db
    .update(models)
    .set({ ...values, apiKeyEncrypted: given === undefined && !stay ? null : given, updatedAt: Date.now() })
    .where(and(eq(models.id, current.id), asRead))
    .returning();
  if (!row) throw conflict("The model is being changed by another request at the same time; read it again and retry.");
  return row;
}

const sameBaseUrl = (baseUrl: string | null) =>
  baseUrl === null ? isNull(models.baseUrl) : eq(models.baseUrl, baseUrl);

export async function deleteModel(db: Db, id: string) {
  await db.delete(models).where(eq(models.id, id));
}
