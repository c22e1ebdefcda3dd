import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json } from "../../lib/openapi";
import { notFound } from "../../lib/errors";
import { authorize } from "../../services/access";
import { getContact } from "../../services/contacts";
import { contactRecord } from "../../services/records/contacts";
import { ContactSchema } from "../../services/records/contacts";
import { CONTACTS_TAG } from "./schema";

const route = createRoute({
  method: "get",
  path: "/contacts/{id}/",
  tags: [CONTACTS_TAG],
  summary: "Get a contact",
  description:
    "Needs `contact.view`. Credentials are never returned: `hasMcpCredentials` and `hasApiCredentials` say " +
    "whether some are stored.",
  request: { params: IdParams },
  responses: { 200: json(ContactSchema, "The contact"), ...errorResponses(403, 404) },
});

export const registerGetContact = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "contact.view");
    const view = await getContact(c.var.db, c.var.data, access.organizationId, c.req.valid("param").id);
    if (!view) throw notFound();
    return c.json(contactRecord(view), 200);
  });
