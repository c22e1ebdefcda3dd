import { z } from "@hono/zod-openapi";
import { IdName, IdRef, nameText, Timestamps } from "../../lib/openapi";
import { ms, timestampsOf } from "../../lib/time";
import type { ContactView } from "../contacts";
import { QueryMetadataSchema } from "./query-metadata";

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

// Request bodies, beside the record (docs/decisions.md, "One word per concept, and where a record's shape is
// written").

/**
 * An http(s) URL or a relative path (the spec's "uri or relative path": `/a.png`, `avatars/a.png`); no other scheme
 * (`javascript:` avatars end up in pages), no host of its own (`//host`), no white space or backslash (which browsers
 * read as a slash, so `/\\host` would name a host).
 */
const isAvatar = (v: string) =>
  z.httpUrl().safeParse(v).success ||
  (v !== "" && !/^[a-z][a-z0-9+.-]*:/i.test(v) && !v.startsWith("//") && !/[\s\\]/.test(v));

/** A name, as every name (one line), and without a comma: the contacts list's `tags` filter splits its values on
 * commas, so a tag "a,b" could never be found by its name. */
const tagName = nameText(100).regex(/^[^,]*$/, "Must not contain a comma (the tags filter separates names by commas).");

const objects = (description: string, example: unknown[]) =>
  z.array(object).max(50).nullable().optional().openapi({ description, example });

const fields = {
  name: nameText(255).openapi({
    description:
      "The contact's name, 1-255 characters after trimming; required to create, kept when left out of an update",
    example: "王小明",
  }),
  inboxes: z
    .array(IdRef)
    .max(50)
    .optional()
    .openapi({
      description: "Inboxes of the organization (`[{id}]`); replaces the links",
      example: [{ id: EXAMPLE_ID }],
    }),
  inbox: IdRef.nullable()
    .optional()
    .openapi({
      description: "Deprecated single inbox (`{id}`); ignored when `inboxes` is present",
      example: { id: EXAMPLE_ID },
    }),
  avatar: z
    .string()
    .trim()
    .max(2048)
    .refine(isAvatar, "Must be an http(s) URL or a relative path (no other scheme, no host).")
    .nullable()
    .optional()
    .openapi({ description: "http(s) URL or relative path", example: "https://cdn.example.com/a.png" }),
  phoneNumber: z.string().trim().max(50).nullable().optional().openapi({
    description:
      "Phone number as free text (not checked), at most 50 characters; the contacts search finds it. Null clears it",
    example: "+886912345678",
  }),
  email: z
    .string()
    .trim()
    .max(254)
    .refine((v) => v === "" || z.email().safeParse(v).success, "Invalid email address.")
    .transform((v) => v || null)
    .nullable()
    .optional()
    .openapi({
      description: "E-mail address; an empty string clears it",
      example: "ming@example.com",
      format: "email",
    }),
  sourceId: z
    .string()
    .trim()
    .max(255)
    .nullable()
    .optional()
    .openapi({ description: "The contact's id on its platform", example: "U4af4980629" }),
  queryMetadata: QueryMetadataSchema.nullable().optional(),
  metadata: object
    .nullable()
    .optional()
    .openapi({ description: "Custom customer information (free-form object)", example: { plan: "gold" } }),
  preChatFieldIndex: object
    .nullable()
    .optional()
    .openapi({ description: "Field id -> label per locale", example: { f1: { en: "Company" } } }),
  tags: z
    .array(tagName)
    .max(50)
    .optional()
    .openapi({
      description:
        "Tag names, 1-100 characters after trimming, on one line and without commas; replaces the contact's tags. " +
        "Names not yet used in the organization are created.",
      example: ["vip", "taipei"],
    }),
  mcpCredentials: objects(
    "Per-contact MCP credentials; write-only, stored encrypted, never returned. Null or [] removes them.",
    [{ server: "crm", headers: { Authorization: "Bearer …" } }],
  ),
  apiCredentials: objects(
    "Per-contact API credentials; write-only, stored encrypted, never returned. Null or [] removes them.",
    [{ tool: "orders", apiKey: "…" }],
  ),
  contactConnectors: objects(
    "Connector grants; token bodies (token, accessToken, refreshToken, secret, …) are dropped",
    [{ connector: "google_drive", scopes: ["drive.readonly"] }],
  ),
};

/** POST: `name` required. */
export const ContactCreate = z.object(fields).openapi("ContactCreate");
/** PUT and PATCH: every field optional; fields left out keep their value. */
export const ContactUpdate = z.object({ ...fields, name: fields.name.optional() }).openapi("ContactUpdate");
