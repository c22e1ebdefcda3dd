// A contact created, changed or deleted through the API, with its inbox links and tags in the same batch: written in
// the organization's data plane (`data`), the inboxes it links to checked first on the control plane (`db`).
import { and, eq, notExists } from "drizzle-orm";
import type { Bindings, Db } from "../env";
import { contactInboxes, contacts, contactTags, conversations } from "../db/schema";
import { badRequest, notFound } from "../lib/errors";
import { uuidv7 } from "../lib/ids";
import {
  type ContactCreateInput,
  type ContactInput,
  contactColumns,
  findContact,
  getContact,
  inboxChange,
  inboxLinkStatements,
  requireInboxesOf,
  tagNames,
  tagStatements,
} from "./contacts";
import { withServersGivenFor } from "./mcp/credentials";
import { contactRecord } from "./records/contacts";
import { deleteContactCopies, refreshContactCopies } from "./shards/contact-copies";

/** The body with its `mcpCredentials` entries recording the servers they are given for (withServersGivenFor). */
const withCredentialServers = async <T extends ContactInput>(db: Db, organizationId: string, body: T) => ({
  ...body,
  mcpCredentials: await withServersGivenFor(db, organizationId, body.mcpCredentials),
});

const hasConversations = () =>
  badRequest("The contact still has conversations.", undefined, "contact_has_conversations");

/** Creates a contact; its inboxes must be the organization's (400 otherwise). */
export async function createContact(
  db: Db,
  data: Db,
  organizationId: string,
  body: ContactCreateInput,
  secret: string | undefined,
) {
  const links = inboxChange(body);
  if (links) await requireInboxesOf(db, organizationId, links.ids, links.field);
  const id = uuidv7();
  const columns = await contactColumns(await withCredentialServers(db, organizationId, body), secret);
  await data.batch([
    data.insert(contacts).values({ ...columns, name: body.name, id, organizationId }),
    ...inboxLinkStatements(data, id, links?.ids ?? []),
    ...(await tagStatements(data, organizationId, id, tagNames(body) ?? [])),
  ]);
  return contactRecord((await getContact(db, data, organizationId, id))!);
}

/** Writes the fields present; `inboxes` (or `inbox`) and `tags` replace the contact's links. 404 for none of the
 * organization's, also when it is deleted while the update runs (then nothing is written). */
export async function updateContact(
  env: Bindings,
  db: Db,
  data: Db,
  organizationId: string,
  contactId: string,
  body: ContactInput,
  secret: string | undefined,
) {
  const found = await findContact(data, organizationId, contactId);
  if (!found) throw notFound();
  const id = found.id;
  const links = inboxChange(body);
  if (links) await requireInboxesOf(db, organizationId, links.ids, links.field);
  const names = tagNames(body);
  const tagging = names && (await tagStatements(data, organizationId, id, names));
  const columns = await contactColumns(await withCredentialServers(db, organizationId, body), secret);
  // A DELETE may land between the read above and this batch: the update then changes no row, and a link to the
  // contact breaks its foreign key, which rolls the whole batch back (the tags it created too).
  const [updated] = await data
    .batch([
      data
        .update(contacts)
        .set({ ...columns, updatedAt: Date.now() })
        .where(and(eq(contacts.id, id), eq(contacts.organizationId, organizationId)))
        .returning({ id: contacts.id }),
      ...(links
        ? [
            data.delete(contactInboxes).where(eq(contactInboxes.contactId, id)),
            ...inboxLinkStatements(data, id, links.ids),
          ]
        : []),
      ...(tagging ? [data.delete(contactTags).where(eq(contactTags.contactId, id)), ...tagging] : []),
    ])
    .catch(async (error) => {
      if (!(await findContact(data, organizationId, id))) throw notFound();
      throw error;
    });
  if (!updated.length) throw notFound();
  await refreshContactCopies(env, organizationId, id);
  const view = await getContact(db, data, organizationId, id);
  if (!view) throw notFound();
  return contactRecord(view);
}

/** Deletes a contact that has no conversation (400 `contact_has_conversations` otherwise; 404 for none of the
 * organization's). */
export async function deleteContact(env: Bindings, data: Db, organizationId: string, contactId: string) {
  const found = await findContact(data, organizationId, contactId);
  if (!found) throw notFound();
  const id = found.id;
  // The organization's later parts first (their copies, where none of their conversations is theirs), then here.
  if (!(await deleteContactCopies(env, organizationId, id))) throw hasConversations();
  // One statement: a conversation started meanwhile cannot slip between the check and the delete.
  const deleted = await data
    .delete(contacts)
    .where(
      and(
        eq(contacts.id, id),
        eq(contacts.organizationId, organizationId),
        notExists(data.select({ id: conversations.id }).from(conversations).where(eq(conversations.contactId, id))),
      ),
    )
    .returning({ id: contacts.id });
  if (!deleted.length) throw hasConversations();
}
