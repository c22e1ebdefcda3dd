import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { createContact } from "../../services/contact-writes";
import { ContactCreate, ContactSchema } from "../../services/records/contacts";
import { CONTACTS_TAG } from "./schema";

const route = createRoute({
  method: "post",
  path: "/contacts/",
  tags: [CONTACTS_TAG],
  summary: "Create a contact",
  description:
    "Needs `contact.manage`. `inboxes` must be inboxes of the organization (400 otherwise); the old single `inbox` " +
    "is read only when `inboxes` is absent. `tags` are names: tags not yet in the organization are created. " +
    "`mcpCredentials` and `apiCredentials` are stored encrypted and never returned (the record says " +
    "`hasMcpCredentials`, `hasApiCredentials`); token bodies in `contactConnectors` are dropped. " +
    "`labelRelations` in `queryMetadata` has no effect without `knowledgeBases`.",
  request: jsonBody(ContactCreate),
  responses: { 201: json(ContactSchema, "The created contact"), ...errorResponses(400, 403) },
});

export const registerCreateContact = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "contact.manage");
    const body = c.req.valid("json");
    return c.json(await createContact(c.var.db, c.var.data, access.organizationId, body, c.env.ENCRYPTION_KEY), 201);
  });
