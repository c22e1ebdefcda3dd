import { index, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { organizations } from "./organizations";
import { inboxes } from "./inboxes";
import { belongsTo, id, json, timestamps } from "./columns";

/** End users who talk to assistants. Credentials are stored sealed and never returned. */
export const contacts = sqliteTable(
  "contacts",
  {
    id: id(),
    organizationId: belongsTo("organization_id", () => organizations.id),
    name: text("name").notNull().default(""),
    avatar: text("avatar"),
    phoneNumber: text("phone_number"),
    email: text("email"),
    sourceId: text("source_id"),
    queryMetadata: json<Record<string, unknown>>("query_metadata"),
    metadata: json<Record<string, unknown>>("metadata"),
    preChatFieldIndex: json<Record<string, unknown>>("pre_chat_field_index"),
    /** AES-GCM sealed JSON arrays (lib/crypto.ts). */
    mcpCredentialsSealed: text("mcp_credentials_sealed"),
    apiCredentialsSealed: text("api_credentials_sealed"),
    contactConnectors: json<Record<string, unknown>[]>("contact_connectors"),
    ...timestamps(),
  },
  (t) => [
    index("contacts_org_idx").on(t.organizationId, t.createdAt),
    index("contacts_source_idx").on(t.organizationId, t.sourceId),
  ],
);

export const contactInboxes = sqliteTable(
  "contact_inboxes",
  {
    contactId: belongsTo("contact_id", () => contacts.id),
    inboxId: belongsTo("inbox_id", () => inboxes.id),
  },
  (t) => [primaryKey({ columns: [t.contactId, t.inboxId] }), index("contact_inboxes_inbox_idx").on(t.inboxId)],
);

export const tags = sqliteTable(
  "tags",
  {
    id: id(),
    organizationId: belongsTo("organization_id", () => organizations.id),
    name: text("name").notNull(),
    ...timestamps(),
  },
  (t) => [uniqueIndex("tags_org_name_uq").on(t.organizationId, t.name)],
);

export const contactTags = sqliteTable(
  "contact_tags",
  {
    contactId: belongsTo("contact_id", () => contacts.id),
    tagId: belongsTo("tag_id", () => tags.id),
  },
  (t) => [primaryKey({ columns: [t.contactId, t.tagId] }), index("contact_tags_tag_idx").on(t.tagId)],
);
