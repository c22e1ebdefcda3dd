import { z } from "@hono/zod-openapi";
import { SearchParam } from "../../lib/openapi";
import { PageQuery } from "../../lib/pagination";
import { MAX_SEARCH_TERMS } from "../../services/contacts";

export const CONTACTS_TAG = "Contacts";
const EXAMPLE_ID = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d";

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
