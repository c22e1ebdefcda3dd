import { expect } from "vitest";
import { eq } from "drizzle-orm";
import { models } from "../../../src/db/schema";
import { db, unique, type Actor } from "../../harness";

export const KINDS = [
  {
    kind: "llm",
    path: "/large-language-models/",
    builtIns: ["00000000-0000-7000-8000-000000000001", "00000000-0000-7000-8000-000000000011"],
  },
  {
    kind: "embedding",
    path: "/embedding-models/",
    builtIns: ["00000000-0000-7000-8000-000000000002", "00000000-0000-7000-8000-000000000012"],
  },
  {
    kind: "reranker",
    path: "/reranker-models/",
    builtIns: ["00000000-0000-7000-8000-000000000003", "00000000-0000-7000-8000-000000000013"],
  },
] as const;
export type Kind = (typeof KINDS)[number];

export type { ModelRecord } from "../../../src/services/records/models";
import type { ModelRecord } from "../../../src/services/records/models";

/** A valid body for each kind: an OpenAI-compatible endpoint (embeddings need dimensions). */
export const validBody = (k: Kind, extra: Record<string, unknown> = {}) => ({
  name: unique("model"),
  provider: "openai_compatible",
  modelName: "gpt-4o-mini",
  baseUrl: "https://llm.example.com/v1",
  ...(k.kind === "embedding" ? { dimensions: 1536 } : {}),
  ...extra,
});

export async function createModel(owner: Actor, k: Kind, extra: Record<string, unknown> = {}): Promise<ModelRecord> {
  const res = await owner.fetch("POST", k.path, validBody(k, extra));
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json();
}

export const storedModels = (organizationId: string) =>
  db().select().from(models).where(eq(models.organizationId, organizationId));
export const storedModel = async (id: string) => (await db().select().from(models).where(eq(models.id, id)))[0];
