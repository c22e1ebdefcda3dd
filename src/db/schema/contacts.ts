import { index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { organizations } from "./organizations";
import { inboxes } from "./inboxes";
import { belongsTo, id, json, timestamps, linkTable } from "./columns";

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

export const contactInboxes = linkTable("contact_inboxes", "contact_inboxes_inbox_idx", {
  contactId: belongsTo("contact_id", () => contacts.id),
  inboxId: belongsTo("inbox_id", () => inboxes.id),
});

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

export const contactTags = linkTable("contact_tags", "contact_tags_tag_idx", {
  contactId: belongsTo("contact_id", () => contacts.id),
  tagId: belongsTo("tag_id", () => tags.id),
});
