import { z } from "@hono/zod-openapi";
import { IdRef, SearchParam } from "../../lib/openapi";
import { PageQuery } from "../../lib/pagination";
import { MAX_SEARCH_TERMS } from "../../services/contacts";
import { QueryMetadataSchema } from "./query-metadata";

export { QueryMetadataSchema, KnowledgeBaseSelectionSchema, LabelRelationSchema } from "./query-metadata";

export const CONTACTS_TAG = "Contacts";
const EXAMPLE_ID = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d";

const object = z.record(z.string(), z.unknown());

/** An http(s) URL or a path on this site; no other schemes (`javascript:` avatars end up in pages). */
const isAvatar = (v: string) => (v.startsWith("/") && !v.startsWith("//")) || z.httpUrl().safeParse(v).success;

const objects = (description: string, example: unknown[]) =>
  z.array(object).max(50).nullable().optional().openapi({ description, example });

const fields = {
  name: z.string().trim().min(1).max(255).openapi({
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
    .refine(isAvatar, "Must be an http(s) URL or a path starting with /.")
    .nullable()
    .optional()
    .openapi({ description: "http(s) URL or relative path starting with /", example: "https://cdn.example.com/a.png" }),
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
    .array(z.string().trim().min(1).max(100))
    .max(50)
    .optional()
    .openapi({
      description: "Tag names; replaces the contact's tags. Names not yet used in the organization are created.",
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

/** Comma-separated values, also accepted as a repeated key (`?tags=a&tags=b`); empty means no filter. */
const list = (description: string, example: string) =>
  z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((v) => {
      const values = [v ?? []]
        .flat()
        .flatMap((s) => s.split(","))
        .map((s) => s.trim())
        .filter(Boolean);
      return values.length ? values : undefined;
    })
    .openapi({ description, example, type: "string" });

/** The list's page and filters (`GET /contacts/`); `contactFilters` (services/contacts.ts) checks and maps them. */
export const ContactListQuery = PageQuery.extend({
  inboxes: list(
    "Comma-separated inbox ids: contacts linked to any of them",
    `${EXAMPLE_ID},0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3e`,
  ),
  inbox: z
    .uuid()
    .optional()
    .openapi({ description: "Deprecated single inbox id; ignored when `inboxes` is given", example: EXAMPLE_ID }),
  query: SearchParam("Name or source id contains (case-insensitive)", "U4af"),
  search: SearchParam(
    `Full text: every word (first ${MAX_SEARCH_TERMS}) occurs in the name, e-mail, phone number, source id ` +
      `or a metadata value`,
    "王小明 gold",
  ),
  channels: list("Comma-separated channel types: contacts linked to an inbox of one of them", "web,line"),
  tags: list("Comma-separated tag names or ids: contacts with any of them", "vip,taipei"),
});
