import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, SearchParam } from "../../lib/openapi";
import { PageQuery, pageOf, pageParams, pageResponse } from "../../lib/pagination";
import { authorize } from "../../services/access";
import { MAX_SEARCH_TERMS, contactFilters, listContacts } from "../../services/contacts";
import { ContactSchema } from "../../services/records/contacts";
import { CONTACTS_TAG } from "./schema";

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

const ListQuery = PageQuery.extend({
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

const route = createRoute({
  method: "get",
  path: "/contacts/",
  tags: [CONTACTS_TAG],
  summary: "List the organization's contacts",
  description:
    "Newest first. Needs `contact.view`. Filters combine with AND; within `inboxes`, `channels` and `tags` " +
    "any value matches. `search` matches substrings of 3 or more characters in any language through a " +
    "full-text index, shorter words by plain substring.",
  request: { query: ListQuery },
  responses: { 200: json(pageOf(ContactSchema, "ContactPage"), "Page of contacts"), ...errorResponses(400, 403, 404) },
});

export const registerListContacts = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "contact.view");
    const q = c.req.valid("query");
    const p = pageParams(q);
    const page = await listContacts(c.var.db, c.var.data, access.organizationId, contactFilters(q), p);
    return c.json(pageResponse(c, p, page.count, page.items), 200);
  });
