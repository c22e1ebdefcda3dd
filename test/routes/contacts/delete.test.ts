import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { contactInboxes, contactTags } from "../../../src/db/schema";
import { PREFIXES, call, data, expectError, seedMember, seedOwner, type Actor } from "../../harness";
import { expectDenied, expectNotFound } from "../../support/refusals";
import { createInbox } from "../inboxes/fixtures";
import { createContact, seedConversation, storedContact } from "./fixtures";

const inboxLinks = async (owner: Actor, contactId: string) =>
  (await data(owner.organizationId)).select().from(contactInboxes).where(eq(contactInboxes.contactId, contactId));

describe("DELETE /contacts/{id}/", () => {
  it.each(PREFIXES)("deletes the contact and its links (%s)", async (prefix) => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    const contact = await createContact(owner, { inboxes: [{ id: inbox.id }], tags: ["vip"] });
    const res = await owner.fetch("DELETE", `/contacts/${contact.id}/`, undefined, { prefix });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    expect(await storedContact(owner.organizationId, contact.id)).toBeUndefined();
    expect(await inboxLinks(owner, contact.id)).toHaveLength(0);
    expect(
      await (await data(owner.organizationId)).select().from(contactTags).where(eq(contactTags.contactId, contact.id)),
    ).toHaveLength(0);
    await expectNotFound(await owner.fetch("GET", `/contacts/${contact.id}/`));
  });

  it("400 contact_has_conversations while a conversation exists", async () => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    const contact = await createContact(owner, { inboxes: [{ id: inbox.id }] });
    await seedConversation(owner, inbox.id, contact.id);
    await expectError(await owner.fetch("DELETE", `/contacts/${contact.id}/`), 400, "contact_has_conversations");
    expect(await storedContact(owner.organizationId, contact.id)).toBeDefined();
    expect(await inboxLinks(owner, contact.id)).toHaveLength(1);
  });

  it("403 for a member with contact.view only", async () => {
    const owner = await seedOwner();
    const contact = await createContact(owner);
    await expectDenied(await (await seedMember(owner, ["contact.view"])).fetch("DELETE", `/contacts/${contact.id}/`));
    expect(await storedContact(owner.organizationId, contact.id)).toBeDefined();
  });

  it("404 for another organization's contact", async () => {
    const owner = await seedOwner();
    const other = await seedOwner();
    const theirs = await createContact(other);
    await expectNotFound(await owner.fetch("DELETE", `/contacts/${theirs.id}/`));
    expect(await storedContact(other.organizationId, theirs.id)).toBeDefined();
  });

  it("401 without a key", async () => {
    await expectError(await call("DELETE", `/api/contacts/${crypto.randomUUID()}/`), 401, "not_authenticated");
  });
});
