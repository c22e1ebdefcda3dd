import { createRoute } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json, jsonBody } from "../../lib/openapi";
import { contactInboxes, contacts, contactTags } from "../../db/schema";
import { notFound } from "../../lib/errors";
import { currentAccess, requirePermission } from "../../services/access";
import {
  contactColumns,
  getContact,
  inboxChange,
  inboxLinkStatements,
  requireInboxesOf,
  tagNames,
  tagStatements,
} from "../../services/contacts";
import { contactRecord } from "../../services/records/contacts";
import { CONTACTS_TAG, ContactSchema, ContactUpdate } from "./schema";

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
      const access = await currentAccess(c);
      requirePermission(access, "contact.manage");
      const { db } = c.var;
      const { organizationId } = access;
      const view = await getContact(db, organizationId, c.req.valid("param").id);
      if (!view) throw notFound();
      const id = view.contact.id;
      const body = c.req.valid("json");
      const links = inboxChange(body);
      if (links) await requireInboxesOf(db, organizationId, links.ids, links.field);
      const names = tagNames(body);
      const columns = await contactColumns(body, c.env.ENCRYPTION_KEY);
      await db.batch([
        db
          .update(contacts)
          .set({ ...columns, updatedAt: Date.now() })
          .where(and(eq(contacts.id, id), eq(contacts.organizationId, organizationId))),
        ...(links
          ? [
              db.delete(contactInboxes).where(eq(contactInboxes.contactId, id)),
              ...inboxLinkStatements(db, organizationId, id, links.ids),
            ]
          : []),
        ...(names
          ? [
              db.delete(contactTags).where(eq(contactTags.contactId, id)),
              ...tagStatements(db, organizationId, id, names),
            ]
          : []),
      ]);
      return c.json(contactRecord((await getContact(db, organizationId, id))!), 200);
    });
  }
}
