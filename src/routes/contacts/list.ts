import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { pageOf, pageParams, pageResponse } from "../../lib/pagination";
import { authorize } from "../../services/access";
import { listContacts } from "../../services/contacts";
import { ContactListQuery, contactFilters } from "../../services/contact-list-query";
import { ContactSchema } from "../../services/records/contacts";
import { CONTACTS_TAG } from "./schema";

const route = createRoute({
  method: "get",
  path: "/contacts/",
  tags: [CONTACTS_TAG],
  summary: "List the organization's contacts",
  description:
    "Needs `contact.view`. Newest first. Filters combine with AND; within `inboxes`, `channels` and `tags` " +
    "any value matches. `search` matches substrings of 3 or more characters in any language through a " +
    "full-text index, shorter words by plain substring.",
  request: { query: ContactListQuery },
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
