import { z } from "@hono/zod-openapi";
import { IdName, Timestamps } from "../../lib/openapi";
import { ms, timestampsOf } from "../../lib/time";
import type { ContactView } from "../contacts";

const EXAMPLE_ID = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d";

// `.nullable()` on a registered schema loses the null in the OpenAPI document; a union keeps it.
const nullableIdName = (description: string) => z.union([IdName, z.null()]).openapi({ description });
const object = z.record(z.string(), z.unknown());

export const ContactTagSchema = z
  .object({
    id: z.string().openapi({ description: "The tag's id", example: EXAMPLE_ID }),
    name: z.string().openapi({ description: "The tag's name, unique in the organization", example: "vip" }),
    ...Timestamps,
  })
  .openapi("ContactTag");

export type ContactTagRecord = z.infer<typeof ContactTagSchema>;

/** The contact record; credentials are never returned, only whether they are stored. */
export const ContactSchema = z
  .object({
    id: z.string().openapi({ description: "The contact's id", example: EXAMPLE_ID }),
    inboxes: z.array(IdName).openapi({
      description: "Inboxes the contact is linked to, oldest inbox first",
      example: [{ id: EXAMPLE_ID, name: "Website" }],
    }),
    inbox: nullableIdName("Deprecated: the first of `inboxes`, or null"),
    name: z.string().openapi({ description: "The contact's name", example: "王小明" }),
    avatar: z
      .string()
      .nullable()
      .openapi({ description: "URL or path starting with /", example: "https://cdn.example.com/a.png" }),
    phoneNumber: z
      .string()
      .nullable()
      .openapi({ description: "Phone number as given; null: none", example: "+886912345678" }),
    email: z
      .string()
      .nullable()
      .openapi({ description: "E-mail address as given; null: none", example: "ming@example.com" }),
    sourceId: z
      .string()
      .nullable()
      .openapi({ description: "The contact's id on its platform", example: "U4af4980629" }),
    queryMetadata: object.nullable().openapi({
      description: "Limits on which knowledge the contact can query (see QueryMetadata); null: no restriction",
      example: {
        knowledgeBases: [
          { knowledgeBaseId: EXAMPLE_ID, knowledgeBaseFileIds: [EXAMPLE_ID], hasUserSelectedAll: false },
        ],
      },
    }),
    metadata: object.openapi({ description: "Custom customer information", example: { plan: "gold" } }),
    preChatFieldIndex: object.openapi({
      description: "Field id -> label per locale",
      example: { f1: { en: "Company", "zh-TW": "公司" } },
    }),
    hasMcpCredentials: z
      .boolean()
      .openapi({ description: "Whether MCP credentials are stored (they are never returned)", example: false }),
    hasApiCredentials: z
      .boolean()
      .openapi({ description: "Whether API credentials are stored (they are never returned)", example: false }),
    contactConnectors: z.array(object).openapi({
      description: "Connector grants, without token bodies",
      example: [{ connector: "google_drive", scopes: ["drive.readonly"] }],
    }),
    tags: z.array(ContactTagSchema).openapi({
      description: "Tags, by name",
      example: [{ id: EXAMPLE_ID, name: "vip", createdAt: "1767225600000", updatedAt: "1767225600000" }],
    }),
    ...Timestamps,
  })
  .openapi("Contact");

export type ContactRecord = z.infer<typeof ContactSchema>;

export const contactRecord = ({ contact: c, inboxes, tags }: ContactView): ContactRecord => ({
  id: c.id,
  inboxes,
  inbox: inboxes[0] ?? null,
  name: c.name,
  avatar: c.avatar,
  phoneNumber: c.phoneNumber,
  email: c.email,
  sourceId: c.sourceId,
  queryMetadata: c.queryMetadata,
  metadata: c.metadata ?? {},
  preChatFieldIndex: c.preChatFieldIndex ?? {},
  hasMcpCredentials: !!c.mcpCredentialsSealed,
  hasApiCredentials: !!c.apiCredentialsSealed,
  contactConnectors: c.contactConnectors ?? [],
  tags: tags.map((t) => ({ id: t.id, name: t.name, createdAt: ms(t.createdAt)!, updatedAt: ms(t.updatedAt)! })),
  ...timestampsOf(c),
});
