import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { contactInboxes, contacts, contactTags, tags } from "../../../src/db/schema";
import { updateContact } from "../../../src/services/contact-writes";
import { PREFIXES, call, data, db, expectError, seedMember, seedOwner, unique } from "../../harness";
import { expectDenied, expectNotFound } from "../../support/refusals";
import { createInbox } from "../inboxes/fixtures";
import { createContact, storedContact } from "./fixtures";
import { bodyOf } from "../../support/api";

const KB = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d";
const linksOf = async (organizationId: string, id: string) =>
  (await (await data(organizationId)).select().from(contactInboxes).where(eq(contactInboxes.contactId, id)))
    .map((l) => l.inboxId)
    .sort();
const tagLinksOf = async (organizationId: string, id: string) =>
  (await (await data(organizationId)).select().from(contactTags).where(eq(contactTags.contactId, id))).length;

describe("PUT and PATCH /contacts/{id}/", () => {
  it.each(PREFIXES)("PUT replaces the fields it is given (%s)", async (prefix) => {
    const owner = await seedOwner();
    const a = await createInbox(owner);
    const b = await createInbox(owner);
    const contact = await createContact(owner, { inboxes: [{ id: a.id }], email: "old@example.com", tags: ["old"] });
    const res = await owner.fetch(
      "PUT",
      `/contacts/${contact.id}/`,
      {
        name: "Renamed",
        inboxes: [{ id: b.id }],
        source_id: "S-2",
        tags: ["new"],
        query_metadata: { knowledge_bases: [] },
      },
      { prefix },
    );
    expect(res.status, await res.clone().text()).toBe(200);
    const updated = await bodyOf<"PUT /contacts/{id}/">(res);
    expect(updated).toMatchObject({
      id: contact.id,
      name: "Renamed",
      inboxes: [{ id: b.id, name: b.name }],
      inbox: { id: b.id, name: b.name },
      email: "old@example.com",
      sourceId: "S-2",
      queryMetadata: { knowledgeBases: [] },
    });
    expect(updated.tags.map((t) => t.name)).toEqual(["new"]);
    expect(Number(updated.updatedAt)).toBeGreaterThanOrEqual(Number(contact.updatedAt));
  });

  it("PATCH changes only what it is given; the old inbox form and nulls work", async () => {
    const owner = await seedOwner();
    const a = await createInbox(owner);
    const b = await createInbox(owner);
    const contact = await createContact(owner, {
      inboxes: [{ id: a.id }],
      email: "x@example.com",
      avatar: "https://cdn.example.com/a.png",
      tags: ["vip"],
      metadata: { k: "v" },
    });
    const patch = async (body: unknown) => {
      const res = await owner.fetch("PATCH", `/contacts/${contact.id}/`, body);
      expect(res.status, await res.clone().text()).toBe(200);
      return await bodyOf<"PATCH /contacts/{id}/">(res);
    };
    expect(await patch({ phoneNumber: "123" })).toMatchObject({
      name: contact.name,
      phoneNumber: "123",
      email: "x@example.com",
      inboxes: [{ id: a.id }],
      metadata: { k: "v" },
      tags: [{ name: "vip" }],
    });
    expect(await patch({ inbox: { id: b.id } })).toMatchObject({
      inboxes: [{ id: b.id, name: b.name }],
      inbox: { id: b.id },
    });
    expect(await patch({ inbox: { id: a.id }, inboxes: [{ id: a.id }, { id: b.id }] })).toMatchObject({
      inboxes: [{ id: a.id }, { id: b.id }],
    });
    expect(await patch({ inbox: null, email: "", avatar: null, metadata: null, tags: [] })).toMatchObject({
      inboxes: [],
      inbox: null,
      email: null,
      avatar: null,
      metadata: {},
      tags: [],
    });
    expect(await linksOf(owner.organizationId, contact.id)).toEqual([]);
    expect(await tagLinksOf(owner.organizationId, contact.id)).toBe(0);
  });

  it("credentials can be replaced and removed, and are never returned", async () => {
    const owner = await seedOwner();
    const contact = await createContact(owner);
    const secret = "api-secret-7788";
    const set = await owner.fetch("PATCH", `/contacts/${contact.id}/`, {
      apiCredentials: [{ apiKey: secret }],
      contactConnectors: [{ connector: "x", refreshToken: secret }],
    });
    const text = await set.text();
    expect(set.status, text).toBe(200);
    expect(text).not.toContain(secret);
    expect(JSON.parse(text)).toMatchObject({
      hasApiCredentials: true,
      hasMcpCredentials: false,
      contactConnectors: [{ connector: "x" }],
    });
    expect((await storedContact(owner.organizationId, contact.id)).apiCredentialsSealed).not.toContain(secret);
    const cleared = await bodyOf<"PATCH /contacts/{id}/">(
      await owner.fetch("PATCH", `/contacts/${contact.id}/`, { apiCredentials: null }),
    );
    expect(cleared.hasApiCredentials).toBe(false);
    expect((await storedContact(owner.organizationId, contact.id)).apiCredentialsSealed).toBeNull();
  });

  it("400 naming the field, and nothing written", async () => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    const theirs = await createInbox(await seedOwner());
    const contact = await createContact(owner, { inboxes: [{ id: inbox.id }], tags: ["vip"], email: "x@example.com" });
    const before = await storedContact(owner.organizationId, contact.id);
    const cases: [string, unknown, string][] = [
      ["PATCH", { name: "", tags: ["new"] }, "name"],
      ["PUT", { email: "bad", inboxes: [] }, "email"],
      ["PATCH", { name: "New", tags: ["new"], inboxes: [{ id: theirs.id }] }, "inboxes"],
      ["PATCH", { name: "New", tags: ["new"], inbox: { id: theirs.id } }, "inbox"],
      [
        "PATCH",
        {
          name: "New",
          queryMetadata: {
            knowledgeBases: [
              { knowledgeBaseId: KB, hasUserSelectedAll: true },
              { knowledgeBaseId: KB, hasUserSelectedAll: false },
            ],
          },
        },
        "queryMetadata.knowledgeBases.1.knowledgeBaseId",
      ],
    ];
    for (const [method, body, field] of cases) {
      const err = await expectError(await owner.fetch(method, `/contacts/${contact.id}/`, body), 400, "invalid");
      expect(Object.keys(err.errors!), JSON.stringify(body)).toEqual([field]);
    }
    expect(await storedContact(owner.organizationId, contact.id)).toEqual(before);
    expect(await linksOf(owner.organizationId, contact.id)).toEqual([inbox.id]);
    expect(await tagLinksOf(owner.organizationId, contact.id)).toBe(1);
  });

  it("403 for a member with contact.view only", async () => {
    const owner = await seedOwner();
    const contact = await createContact(owner);
    const viewer = await seedMember(owner, ["contact.view"]);
    await expectDenied(await viewer.fetch("PATCH", `/contacts/${contact.id}/`, { name: "New" }));
    expect((await storedContact(owner.organizationId, contact.id)).name).toBe(contact.name);
    const manager = await seedMember(owner, ["contact.manage"]);
    expect((await manager.fetch("PUT", `/contacts/${contact.id}/`, { name: "New" })).status).toBe(200);
  });

  it("404 for another organization's contact", async () => {
    const owner = await seedOwner();
    const other = await seedOwner();
    const theirs = await createContact(other);
    await expectNotFound(await owner.fetch("PUT", `/contacts/${theirs.id}/`, { name: "Mine" }));
    await expectNotFound(await owner.fetch("PATCH", `/contacts/${theirs.id}/`, { name: "Mine" }));
    expect((await storedContact(other.organizationId, theirs.id)).name).toBe(theirs.name);
  });

  it.each([
    ["its fields only", false],
    ["its inboxes and tags too", true],
  ])(
    "a contact deleted between the update's read and its write is a 404, and nothing is written (%s)",
    async (_, links) => {
      const owner = await seedOwner();
      const inbox = await createInbox(owner);
      const contact = await createContact(owner, { tags: ["old"] });
      const plane = await data(owner.organizationId);
      // The DELETE lands after the update found the contact, right before its batch.
      const racing = new Proxy(plane, {
        get: (target, key, receiver) =>
          key === "batch"
            ? async (statements: Parameters<typeof target.batch>[0]) => {
                await target.delete(contacts).where(eq(contacts.id, contact.id));
                return target.batch(statements);
              }
            : Reflect.get(target, key, receiver),
      });
      const tag = unique("raced");
      const body = links ? { name: "New", tags: [tag], inboxes: [{ id: inbox.id }] } : { name: "New" };
      const update = updateContact(env, db(), racing, owner.organizationId, contact.id, body, env.ENCRYPTION_KEY);
      await expect(update).rejects.toMatchObject({ status: 404 });
      const named = await plane
        .select()
        .from(tags)
        .where(and(eq(tags.organizationId, owner.organizationId), eq(tags.name, tag)));
      expect(named).toEqual([]);
      expect(await linksOf(owner.organizationId, contact.id)).toEqual([]);
      expect(await tagLinksOf(owner.organizationId, contact.id)).toBe(0);
    },
  );

  it("401 without a key", async () => {
    await expectError(
      await call("PATCH", `/api/contacts/${crypto.randomUUID()}/`, { name: "x" }),
      401,
      "not_authenticated",
    );
  });
});
