import { createRoute, z } from "@hono/zod-openapi";
import { count, desc } from "drizzle-orm";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { PageQuery, pageOf, pageParams, pageResponse } from "../../lib/pagination";
import { CHANNEL_TYPES, contacts } from "../../db/schema";
import { fieldError } from "../../lib/errors";
import { isUuid } from "../../lib/ids";
import { currentAccess, requirePermission } from "../../services/access";
import { MAX_SEARCH_TERMS, contactConditions, contactViews, type ContactFilters } from "../../services/contacts";
import { contactRecord } from "../../services/records/contacts";
import { CONTACTS_TAG, ContactSchema } from "./schema";

const EXAMPLE_ID = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d";
const MAX_VALUES = 100;

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
  query: z
    .string()
    .trim()
    .max(200)
    .optional()
    .openapi({ description: "Name or source id contains (case-insensitive)", example: "U4af" }),
  search: z
    .string()
    .trim()
    .max(200)
    .optional()
    .openapi({
      description: `Full text: every word (first ${MAX_SEARCH_TERMS}) occurs in the name, e-mail, phone number, source id or a metadata value`,
      example: "王小明 gold",
    }),
  channels: list("Comma-separated channel types: contacts linked to an inbox of one of them", "web,line"),
  tags: list("Comma-separated tag names or ids: contacts with any of them", "vip,taipei"),
});

function filtersOf(q: z.infer<typeof ListQuery>): ContactFilters {
  for (const [field, values] of Object.entries({ inboxes: q.inboxes, channels: q.channels, tags: q.tags })) {
    if (values && values.length > MAX_VALUES) throw fieldError(field, `At most ${MAX_VALUES} values.`);
  }
  if (q.inboxes?.some((id) => !isUuid(id))) throw fieldError("inboxes", "Must be comma-separated UUIDs.");
  const unknown = q.channels?.filter((t) => !(CHANNEL_TYPES as readonly string[]).includes(t));
  if (unknown?.length) throw fieldError("channels", `Unknown channel type: ${unknown.join(", ")}.`);
  return {
    inboxes: q.inboxes ?? (q.inbox ? [q.inbox] : undefined),
    query: q.query || undefined,
    search: q.search || undefined,
    channels: q.channels,
    tags: q.tags,
  };
}

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
    const access = await currentAccess(c);
    requirePermission(access, "contact.view");
    const q = c.req.valid("query");
    const p = pageParams(q);
    const { db } = c.var;
    const where = contactConditions(db, access.organizationId, filtersOf(q));
    const [[{ n }], rows] = await Promise.all([
      db.select({ n: count() }).from(contacts).where(where),
      db
        .select()
        .from(contacts)
        .where(where)
        .orderBy(desc(contacts.createdAt), desc(contacts.id))
        .limit(p.limit)
        .offset(p.offset),
    ]);
    const views = await contactViews(db, access.organizationId, rows);
    return c.json(pageResponse(c, p, n, views.map(contactRecord)), 200);
  });
