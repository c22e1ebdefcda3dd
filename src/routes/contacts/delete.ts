import { createRoute } from "@hono/zod-openapi";
import { and, eq, notExists } from "drizzle-orm";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, noContent } from "../../lib/openapi";
import { contacts, conversations } from "../../db/schema";
import { badRequest, notFound } from "../../lib/errors";
import { currentAccess, requirePermission } from "../../services/access";
import { getContact } from "../../services/contacts";
import { CONTACTS_TAG } from "./schema";

const route = createRoute({
  method: "delete",
  path: "/contacts/{id}/",
  tags: [CONTACTS_TAG],
  summary: "Delete a contact",
  description:
    "Needs `contact.manage`. A contact that still has conversations cannot be deleted: 400 `contact_has_conversations`.",
  request: { params: IdParams },
  responses: { 204: noContent, ...errorResponses(400, 403, 404) },
});

export const registerDeleteContact = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await currentAccess(c);
    requirePermission(access, "contact.manage");
    const { db } = c.var;
    const view = await getContact(db, access.organizationId, c.req.valid("param").id);
    if (!view) throw notFound();
    const id = view.contact.id;
    // One statement: a conversation started meanwhile cannot slip between the check and the delete.
    const deleted = await db
      .delete(contacts)
      .where(
        and(
          eq(contacts.id, id),
          eq(contacts.organizationId, access.organizationId),
          notExists(db.select({ id: conversations.id }).from(conversations).where(eq(conversations.contactId, id))),
        ),
      )
      .returning({ id: contacts.id });
    if (!deleted.length)
      throw badRequest("The contact still has conversations.", undefined, "contact_has_conversations");
    return c.body(null, 204);
  });
