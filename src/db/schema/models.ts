import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { organizations } from "./organizations";
import { id, timestamps } from "./columns";

export const MODEL_KINDS = ["llm", "embedding", "reranker"] as const;
export const MODEL_PROVIDERS = ["local", "openai_compatible", "workers_ai"] as const;

/** Language, embedding and reranker models. Built-in ones have no organization. */
export const models = sqliteTable(
  "models",
  {
    id: id(),
    organizationId: text("organization_id").references(() => organizations.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: MODEL_KINDS }).notNull(),
    name: text("name").notNull(),
    provider: text("provider", { enum: MODEL_PROVIDERS }).notNull(),
    modelName: text("model_name").notNull(),
    baseUrl: text("base_url"),
    /** AES-GCM sealed (lib/crypto.ts); never returned. */
    apiKeyEncrypted: text("api_key_encrypted"),
    dimensions: integer("dimensions"),
    ...timestamps(),
  },
  (t) => [index("models_org_kind_idx").on(t.organizationId, t.kind)],
);
