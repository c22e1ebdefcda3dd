// A contact created, changed or deleted through the API, with its inbox links and tags in the same batch.
import { and, eq, notExists } from "drizzle-orm";
import type { Db } from "../env";
import { contactInboxes, contacts, contactTags, conversations } from "../db/schema";
import { badRequest, notFound } from "../lib/errors";
import { uuidv7 } from "../lib/ids";
import {
  type ContactInput,
  contactColumns,
  getContact,
  type InboxesInput,
  inboxChange,
  inboxLinkStatements,
  requireInboxesOf,
  tagNames,
  tagStatements,
} from "./contacts";
import { contactRecord } from "./records/contacts";

type ContactWrite = ContactInput & InboxesInput & { tags?: string[] };

/** Creates a contact; its inboxes must be the organization's (400 otherwise). */
export async function createContact(
  db: Db,
  organizationId: string,
  body: ContactWrite & { name: string },
  secret: string | undefined,
) {
  const links = inboxChange(body);
  if (links) await requireInboxesOf(db, organizationId, links.ids, links.field);
  const id = uuidv7();
  const columns = await contactColumns(body, secret);
  await db.batch([
    db.insert(contacts).values({ ...columns, name: body.name, id, organizationId }),
    ...inboxLinkStatements(db, id, links?.ids ?? []),
    ...tagStatements(db, organizationId, id, tagNames(body) ?? []),
  ]);
  return contactRecord((await getContact(db, organizationId, id))!);
}

/** Writes the fields present; `inboxes` (or `inbox`) and `tags` replace the contact's links. 404 for none of the
 * organization's. */
export async function updateContact(
  db: Db,
  organizationId: string,
  contactId: string,
  body: ContactWrite,
  secret: string | undefined,
) {
  const view = await getContact(db, organizationId, contactId);
  if (!view) throw notFound();
  const id = view.contact.id;
  const links = inboxChange(body);
  if (links) await requireInboxesOf(db, organizationId, links.ids, links.field);
  const names = tagNames(body);
  const columns = await contactColumns(body, secret);
  await db.batch([
    db
      .update(contacts)
      .set({ ...columns, updatedAt: Date.now() })
      .where(and(eq(contacts.id, id), eq(contacts.organizationId, organizationId))),
    ...(links
      ? [db.delete(contactInboxes).where(eq(contactInboxes.contactId, id)), ...inboxLinkStatements(db, id, links.ids)]
      : []),
    ...(names
      ? [db.delete(contactTags).where(eq(contactTags.contactId, id)), ...tagStatements(db, organizationId, id, names)]
      : []),
  ]);
  return contactRecord((await getContact(db, organizationId, id))!);
}

/** Deletes a contact that has no conversation (400 `contact_has_conversations` otherwise; 404 for none of the
 * organization's). */
export async function deleteContact(db: Db, organizationId: string, contactId: string) {
  const view = await getContact(db, organizationId, contactId);
  if (!view) throw notFound();
  const id = view.contact.id;
  // One statement: a conversation started meanwhile cannot slip between the check and the delete.
  const deleted = await db
    .delete(contacts)
    .where(
      and(
        eq(contacts.id, id),
        eq(contacts.organizationId, organizationId),
        notExists(db.select({ id: conversations.id }).from(conversations).where(eq(conversations.contactId, id))),
      ),
    )
    .returning({ id: contacts.id });
  if (!deleted.length) throw badRequest("The contact still has conversations.", undefined, "contact_has_conversations");
}
