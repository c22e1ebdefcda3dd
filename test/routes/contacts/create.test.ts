import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { contactInboxes, tags } from "../../../src/db/schema";
import { decryptSecret } from "../../../src/lib/crypto";
import { NO_SUCH_ID, PREFIXES, call, data, expectError, seedMember, seedOwner } from "../../harness";
import { expectInvalid } from "../../support/refusals";
import { createInbox } from "../inboxes/fixtures";
import { contactsOf, createContact, storedContact } from "./fixtures";
import { bodyOf } from "../../support/api";

const KB = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d";
const FILE = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3e";
const OLD_FILE = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3f";
const tagsOf = async (organizationId: string) =>
  (await data(organizationId)).select().from(tags).where(eq(tags.organizationId, organizationId));

describe("POST /contacts/", () => {
  it.each(PREFIXES)("creates a contact from a snake_case body (%s)", async (prefix) => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    const res = await owner.fetch(
      "POST",
      "/contacts/",
      {
        name: "王小明",
        inboxes: [{ id: inbox.id }],
        avatar: "/files/public/a.png",
        phone_number: "+886912345678",
        email: "ming@example.com",
        source_id: "U123",
        query_metadata: {
          knowledge_bases: [
            {
              knowledge_base_id: KB,
              chatbot_file_ids: [OLD_FILE],
              knowledge_base_file_ids: [FILE],
              has_user_selected_all: false,
            },
          ],
          label_relations: { operator: "OR", conditions: [{ label_id: KB }] },
        },
        metadata: { plan_name: "gold", nested: { city: "Taipei" } },
        pre_chat_field_index: { f1: { en: "Company" } },
        tags: ["vip", "vip", "taipei"],
      },
      { prefix },
    );
    expect(res.status, await res.clone().text()).toBe(201);
    const contact = await bodyOf<"POST /contacts/">(res);
    expect(contact).toMatchObject({
      name: "王小明",
      inboxes: [{ id: inbox.id, name: inbox.name }],
      inbox: { id: inbox.id, name: inbox.name },
      avatar: "/files/public/a.png",
      phoneNumber: "+886912345678",
      email: "ming@example.com",
      sourceId: "U123",
      // chatbotFileIds (deprecated) loses to knowledgeBaseFileIds and is not stored.
      queryMetadata: {
        knowledgeBases: [{ knowledgeBaseId: KB, knowledgeBaseFileIds: [FILE], hasUserSelectedAll: false }],
        labelRelations: { operator: "OR", conditions: [{ labelId: KB }] },
      },
      // Free-form objects keep their keys as sent.
      metadata: { plan_name: "gold", nested: { city: "Taipei" } },
      preChatFieldIndex: { f1: { en: "Company" } },
      hasMcpCredentials: false,
      hasApiCredentials: false,
      contactConnectors: [],
    });
    expect(JSON.stringify(contact.queryMetadata)).not.toContain("chatbotFileIds");
    expect(contact.tags.map((t) => t.name)).toEqual(["taipei", "vip"]);
    expect(contact.createdAt).toMatch(/^\d+$/);
    const got = await owner.fetch("GET", `/contacts/${contact.id}/`, undefined, { prefix });
    expect(await got.json()).toEqual(contact);
  });

  it("an avatar is an http(s) URL or a relative path, rooted or not (the spec: uri or relative path)", async () => {
    const owner = await seedOwner();
    for (const avatar of ["https://cdn.example.com/a.png", "/files/public/a.png", "contact-avatars/ada.png"]) {
      const res = await owner.fetch("POST", "/contacts/", { name: "Ada", avatar });
      expect(res.status, await res.clone().text()).toBe(201);
      expect((await bodyOf<"POST /contacts/">(res)).avatar).toBe(avatar);
    }
  });

  it("chatbotFileIds alone is stored as knowledgeBaseFileIds", async () => {
    const owner = await seedOwner();
    const contact = await createContact(owner, {
      queryMetadata: {
        knowledgeBases: [{ knowledgeBaseId: KB, chatbotFileIds: [OLD_FILE], hasUserSelectedAll: true }],
      },
    });
    expect(contact.queryMetadata).toEqual({
      knowledgeBases: [{ knowledgeBaseId: KB, knowledgeBaseFileIds: [OLD_FILE], hasUserSelectedAll: true }],
    });
  });

  it("credentials are stored sealed and never returned; connector token bodies are dropped", async () => {
    const owner = await seedOwner();
    const secret = "sk-super-secret-value-1234";
    const res = await owner.fetch("POST", "/contacts/", {
      name: "Ada",
      mcp_credentials: [{ server: "crm", headers: { Authorization: `Bearer ${secret}` } }],
      apiCredentials: [{ tool: "orders", apiKey: `${secret}-api` }],
      contactConnectors: [
        {
          connector: "drive",
          scopes: ["read"],
          accessToken: `${secret}-a`,
          refresh_token: `${secret}-r`,
          grant: { token: `${secret}-t`, expiresAt: 1 },
          clientSecret: `${secret}-c`,
          private_key: `${secret}-pk`,
          jwt: `${secret}-jwt`,
          key: `${secret}-k`,
          pwd: `${secret}-pwd`,
          aws_access_key: `${secret}-ak`,
          "ssh.passphrase": `${secret}-pp`,
          cookie: `${secret}-cookie`,
          sessionCookies: `${secret}-cookies`,
          Session: `${secret}-session`,
        },
      ],
    });
    const text = await res.clone().text();
    expect(res.status, text).toBe(201);
    expect(text).not.toContain(secret);
    const contact = await bodyOf<"POST /contacts/">(res);
    expect(contact).toMatchObject({
      hasMcpCredentials: true,
      hasApiCredentials: true,
      contactConnectors: [{ connector: "drive", scopes: ["read"], grant: { expiresAt: 1 } }],
    });
    expect(contact).not.toHaveProperty("mcpCredentials");
    expect(contact).not.toHaveProperty("apiCredentials");
    const row = await storedContact(owner.organizationId, contact.id);
    expect(row.mcpCredentialsSealed).toMatch(/^v1:/);
    expect(row.mcpCredentialsSealed).not.toContain(secret);
    expect(row.apiCredentialsSealed).not.toContain(secret);
    expect(JSON.stringify(row.contactConnectors)).not.toContain(secret);
    expect(JSON.parse(await decryptSecret(row.mcpCredentialsSealed!, env.ENCRYPTION_KEY))).toEqual([
      { server: "crm", headers: { Authorization: `Bearer ${secret}` } },
    ]);
    for (const path of [`/contacts/${contact.id}/`, "/contacts/"])
      expect(await (await owner.fetch("GET", path)).text()).not.toContain(secret);
  });

  it("the old single inbox counts when inboxes is absent, and is ignored when it is present", async () => {
    const owner = await seedOwner();
    const a = await createInbox(owner);
    const b = await createInbox(owner);
    const old = await createContact(owner, { inbox: { id: a.id } });
    expect(old).toMatchObject({ inboxes: [{ id: a.id, name: a.name }], inbox: { id: a.id, name: a.name } });
    const both = await createContact(owner, { inbox: { id: a.id }, inboxes: [{ id: b.id }] });
    expect(both.inboxes).toEqual([{ id: b.id, name: b.name }]);
    const none = await createContact(owner);
    expect(none).toMatchObject({ inboxes: [], inbox: null });
  });

  it("tags are created in the organization once and shared by name", async () => {
    const owner = await seedOwner();
    const first = await createContact(owner, { tags: ["vip"] });
    const second = await createContact(owner, { tags: ["vip", "new"] });
    expect(second.tags.find((t) => t.name === "vip")!.id).toBe(first.tags[0].id);
    expect((await tagsOf(owner.organizationId)).map((t) => t.name).sort()).toEqual(["new", "vip"]);
  });

  it("a tag stored decomposed (NFD) is reused by its composed name (NFC), on create and update", async () => {
    const owner = await seedOwner();
    const plane = await data(owner.organizationId);
    // Stored before names were kept in NFC: "café" with a combining accent.
    const [old] = await plane
      .insert(tags)
      .values({ id: crypto.randomUUID(), organizationId: owner.organizationId, name: "cafe\u0301" })
      .returning();
    const created = await createContact(owner, { tags: ["caf\u00e9", "new"] });
    expect(created.tags.find((t) => t.name.normalize("NFC") === "caf\u00e9")?.id).toBe(old.id);
    const other = await createContact(owner);
    const res = await owner.fetch("PATCH", `/contacts/${other.id}/`, { tags: ["caf\u00e9"] });
    expect(res.status).toBe(200);
    expect((await bodyOf<"PATCH /contacts/{id}/">(res)).tags.map((t) => t.id)).toEqual([old.id]);
    // No second tag of the name; a new one is stored composed.
    expect((await tagsOf(owner.organizationId)).map((t) => t.name).sort()).toEqual(["cafe\u0301", "new"]);
  });

  it("a tag name is one line, as every name, and holds no comma, which the tags filter splits on", async () => {
    const owner = await seedOwner();
    for (const name of ["x\u0000y", "line\nbreak", "tab\there", "a,b"]) {
      const err = await expectError(
        await owner.fetch("POST", "/contacts/", { name: "Ada", tags: [name] }),
        400,
        "invalid",
      );
      expect(Object.keys(err.errors!), JSON.stringify(name)).toEqual(["tags.0"]);
    }
    expect(await contactsOf(owner.organizationId)).toHaveLength(0);
    expect(await tagsOf(owner.organizationId)).toHaveLength(0);
  });

  it.each([
    [{}, "name"],
    [{ name: "x", email: "not-an-email" }, "email"],
    [{ name: "x", avatar: "javascript:alert(1)" }, "avatar"],
    [{ name: "x", avatar: "data:image/png;base64,iVBORw0KGgo=" }, "avatar"],
    [{ name: "x", avatar: "//evil.example/a.png" }, "avatar"],
    [{ name: "x", avatar: "/\\evil.example/a.png" }, "avatar"],
    [{ name: "x", metadata: ["not", "an", "object"] }, "metadata"],
    [{ name: "x", inboxes: [{ id: "nope" }] }, "inboxes.0.id"],
    [{ name: "x", tags: [""] }, "tags.0"],
    [{ name: "x", mcpCredentials: "secret" }, "mcpCredentials"],
    [{ name: "x", queryMetadata: { knowledgeBase: [] } }, "queryMetadata"],
    [
      { name: "x", queryMetadata: { knowledgeBases: [{ knowledgeBaseId: KB }] } },
      "queryMetadata.knowledgeBases.0.hasUserSelectedAll",
    ],
    [
      {
        name: "x",
        queryMetadata: { knowledgeBases: [{ knowledgeBaseId: KB, hasUserSelectedAll: true, fileIds: [] }] },
      },
      "queryMetadata.knowledgeBases.0",
    ],
    [
      { name: "x", queryMetadata: { knowledgeBases: [{ knowledgeBaseId: "kb-1", hasUserSelectedAll: true }] } },
      "queryMetadata.knowledgeBases.0.knowledgeBaseId",
    ],
    [
      { name: "x", queryMetadata: { labelRelations: { operator: "XOR", conditions: [] } } },
      "queryMetadata.labelRelations.operator",
    ],
    [
      { name: "x", queryMetadata: { labelRelations: { operator: "OR", conditions: [{ labelId: "l1" }] } } },
      "queryMetadata.labelRelations.conditions.0.labelId",
    ],
  ])("bad input %j is a 400 naming %s, and writes nothing", async (body, field) => {
    const owner = await seedOwner();
    const err = await expectError(await owner.fetch("POST", "/contacts/", { tags: ["t"], ...body }), 400, "invalid");
    expect(Object.keys(err.errors!)).toContain(field);
    expect(await contactsOf(owner.organizationId)).toHaveLength(0);
    expect(await tagsOf(owner.organizationId)).toHaveLength(0);
  });

  it("an inbox of another organization (or none at all) is a 400 naming inboxes, and writes nothing", async () => {
    const owner = await seedOwner();
    const mine = await createInbox(owner);
    const theirs = await createInbox(await seedOwner());
    for (const ids of [[mine.id, theirs.id], [NO_SUCH_ID]]) {
      await expectInvalid(
        await owner.fetch("POST", "/contacts/", { name: "x", inboxes: ids.map((id) => ({ id })), tags: ["t"] }),
        "inboxes",
      );
    }
    await expectInvalid(await owner.fetch("POST", "/contacts/", { name: "x", inbox: { id: theirs.id } }), "inbox");
    expect(await contactsOf(owner.organizationId)).toHaveLength(0);
    expect(await tagsOf(owner.organizationId)).toHaveLength(0);
    const plane = await data(owner.organizationId);
    expect(await plane.select().from(contactInboxes).where(eq(contactInboxes.inboxId, theirs.id))).toHaveLength(0);
  });

  it("403 for a member with contact.view only; contact.manage may create", async () => {
    const owner = await seedOwner();
    const viewer = await seedMember(owner, ["contact.view"]);
    await expectError(await viewer.fetch("POST", "/contacts/", { name: "x" }), 403, "permission_denied");
    expect(await contactsOf(owner.organizationId)).toHaveLength(0);
    const manager = await seedMember(owner, ["contact.manage"]);
    expect((await manager.fetch("POST", "/contacts/", { name: "x" })).status).toBe(201);
  });

  it("401 without a key", async () => {
    await expectError(await call("POST", "/api/v1/contacts/", { name: "x" }), 401, "not_authenticated");
  });
});
