import { describe, expect, it } from "vitest";
import { NO_SUCH_ID, PREFIXES, call, expectError, seedOwner } from "../../harness";
import { expectReadableWith, expectUnknownIds } from "../../support/refusals";
import { createInbox } from "../inboxes/fixtures";
import { createContact } from "./fixtures";

describe("GET /contacts/{id}/", () => {
  it.each(PREFIXES)("returns the contact under %s", async (prefix) => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    const contact = await createContact(owner, { inboxes: [{ id: inbox.id }], tags: ["vip"] });
    const res = await owner.fetch("GET", `/contacts/${contact.id}`, undefined, { prefix });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(contact);
  });

  it("never returns credentials", async () => {
    const owner = await seedOwner();
    const secret = "mcp-secret-0451";
    const contact = await createContact(owner, {
      mcpCredentials: [{ token: secret }],
      apiCredentials: [{ key: secret }],
    });
    const text = await (await owner.fetch("GET", `/contacts/${contact.id}/`)).text();
    expect(text).not.toContain(secret);
    expect(JSON.parse(text)).toMatchObject({ hasMcpCredentials: true, hasApiCredentials: true });
  });

  it("404 for another organization's contact, an unknown or a malformed id", async () => {
    const owner = await seedOwner();
    const theirs = await createContact(await seedOwner());
    await expectUnknownIds(owner, "/contacts/", theirs.id);
  });

  it("403 without contact.view; contact.view or contact.manage may read", async () => {
    const owner = await seedOwner();
    const contact = await createContact(owner);
    const readers = ["contact.view", "contact.manage"] as const;
    await expectReadableWith(owner, `/contacts/${contact.id}/`, { denied: ["inbox.view"], readers: [...readers] });
  });

  it("401 without a key", async () => {
    await expectError(await call("GET", `/api/v1/contacts/${NO_SUCH_ID}/`), 401, "not_authenticated");
  });
});
