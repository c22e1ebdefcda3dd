import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json, jsonBody } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { updateContact } from "../../services/contact-writes";
import { ContactSchema, ContactUpdate } from "../../services/records/contacts";
import { CONTACTS_TAG } from "./schema";

const routeFor = (method: "put" | "patch") =>
  createRoute({
    method,
    path: "/contacts/{id}/",
    tags: [CONTACTS_TAG],
    summary: method === "put" ? "Replace a contact's fields" : "Update some fields of a contact",
    description:
      "Needs `contact.manage`. Every field is optional (PUT as PATCH, as the spec has it): fields left out keep " +
      "their value. `inboxes` (or the old single `inbox`, read only when `inboxes` is absent) replaces the " +
      "contact's inboxes; `tags` replaces its tags, creating unknown names. Credentials are write-only.",
    request: { params: IdParams, ...jsonBody(ContactUpdate) },
    responses: { 200: json(ContactSchema, "The updated contact"), ...errorResponses(400, 403, 404) },
  });

export function registerUpdateContact(r: Router) {
  for (const route of [routeFor("put"), routeFor("patch")]) {
    r.openapi(route, async (c) => {
      const access = await authorize(c, "contact.manage");
      const { id } = c.req.valid("param");
      const body = c.req.valid("json");
      return c.json(
        await updateContact(c.env, c.var.db, c.var.data, access.organizationId, id, body, c.env.ENCRYPTION_KEY),
        200,
      );
    });
  }
}
