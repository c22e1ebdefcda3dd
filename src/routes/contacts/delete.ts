import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, noContent } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { deleteContact } from "../../services/contact-writes";
import { CONTACTS_TAG } from "./schema";

const route = createRoute({
  method: "delete",
  path: "/contacts/{id}/",
  tags: [CONTACTS_TAG],
  summary: "Delete a contact",
  description:
    "Needs `contact.manage`. A contact that still has conversations cannot be deleted: 400 " +
    "`contact_has_conversations`.",
  request: { params: IdParams },
  responses: { 204: noContent, ...errorResponses(400, 403, 404) },
});

export const registerDeleteContact = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "contact.manage");
    await deleteContact(c.env, c.var.data, access.organizationId, c.req.valid("param").id);
    return c.body(null, 204);
  });
