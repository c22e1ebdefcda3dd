import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { countRows, NO_SUCH_ID, call, data, expectError, seedOwner } from "../../harness";
import { identityDigest, signVisitorToken } from "../../../src/services/widget/tokens";
import { client, newIdentitySecret, pub, seedWebChat, signedContact, startSession } from "./fixtures";
import { client as d1Of } from "../../../src/db/prepared";
import { bodyOf } from "../../support/api";
import { createInbox } from "../inboxes/fixtures";
import { createContact, storedContact } from "../contacts/fixtures";

/** A count in the organization's data plane. */
const count = async (organizationId: string, from: string, ...binds: unknown[]) =>
  countRows(d1Of(await data(organizationId)), from, ...binds);
const contactsOf = (organizationId: string) =>
  count(organizationId, "contacts WHERE organization_id = ?", organizationId);

describe("GET /web-chats/{id}/public/config/", () => {
  it("gives what the widget shows, without keys or other resources' ids", async () => {
    const owner = await seedOwner();
    const chat = await seedWebChat(owner, {
      displayGreeting: "Hi <b>there</b>",
      displayConversationStarters: ["Hours?"],
      theme: { primaryColor: "#112233" },
      defaultThemeMode: "dark",
      enableDisplayChatbotName: true,
    });
    await owner.fetch("POST", `/web-chats/${chat.id}/identity-secret/`);
    const res = await client().get(pub(chat.id, "config/"));
    expect(res.status).toBe(200);
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe("*");
    const config = await bodyOf<"GET /web-chats/{id}/public/config/">(res);
    expect(config).toMatchObject({
      id: chat.id,
      isActive: true,
      displayGreeting: "Hi <b>there</b>",
      displayConversationStarters: ["Hours?"],
      theme: { primaryColor: "#112233" },
      defaultThemeMode: "dark",
      assistantName: chat.bot.name,
      enableFileUpload: false,
    });
    const text = JSON.stringify(config);
    expect(text).not.toContain(chat.inboxId);
    expect(text).not.toContain(chat.bot.id);
    expect(text).not.toContain("identitySecret");
    expect(text).not.toContain(owner.organizationId);
  });

  it("answers under /api too, and a preflight without a key", async () => {
    const owner = await seedOwner();
    const chat = await seedWebChat(owner);
    expect((await client().get(`/api/web-chats/${chat.id}/public/config/`)).status).toBe(200);
    const pre = await call("OPTIONS", pub(chat.id, "messages/"), undefined, {
      Origin: "https://shop.example.com",
      "Access-Control-Request-Headers": "authorization, last-event-id",
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("Access-Control-Allow-Headers")).toContain("Last-Event-ID");
  });

  it("404s for an unknown or malformed web chat", async () => {
    await expectError(await client().get(pub(NO_SUCH_ID, "config/")), 404, "not_found");
    await expectError(await client().get(pub("not-a-uuid", "config/")), 404, "not_found");
  });

  it("shows an inactive web chat as closed, and its other endpoints refuse", async () => {
    const owner = await seedOwner();
    const chat = await seedWebChat(owner, { isActive: false, enableAnonymous: true });
    const config = await bodyOf<"GET /web-chats/{id}/public/config/">(await client().get(pub(chat.id, "config/")));
    expect(config.isActive).toBe(false);
    await expectError(await client().post(pub(chat.id, "session/"), {}), 403, "web_chat_inactive");
  });
});

describe("POST /web-chats/{id}/public/session/", () => {
  it("creates an anonymous contact with a scoped token, and renews it for the same visitor", async () => {
    const owner = await seedOwner();
    const chat = await seedWebChat(owner);
    const first = await startSession(chat.id);
    expect(first.token).toMatch(/^v1\./);
    expect(first.contact.identified).toBe(false);
    expect(Number(first.expiresAt)).toBeGreaterThan(Date.now());
    expect(
      await count(
        owner.organizationId,
        "contact_inboxes WHERE contact_id = ? AND inbox_id = ?",
        first.contact.id,
        chat.inboxId,
      ),
    ).toBe(1);
    const again = await startSession(chat.id, { token: first.token });
    expect(again.contact.id).toBe(first.contact.id);
    // An expired token of this web chat still renews within 30 days.
    const expired = await signVisitorToken(
      { w: chat.id, c: first.contact.id, exp: Math.floor(Date.now() / 1000) - 3600 },
      env.ENCRYPTION_KEY,
    );
    expect((await startSession(chat.id, { token: expired })).contact.id).toBe(first.contact.id);
    // A token of another web chat starts a new visitor instead.
    const other = await seedWebChat(owner);
    const elsewhere = await startSession(other.id, { token: first.token });
    expect(elsewhere.contact.id).not.toBe(first.contact.id);
  });

  it("asks for a name or e-mail when anonymous visitors are not allowed, and writes nothing", async () => {
    const owner = await seedOwner();
    const chat = await seedWebChat(owner, { enableAnonymous: false });
    const before = await contactsOf(owner.organizationId);
    await expectError(await client().post(pub(chat.id, "session/"), {}), 400, "invalid");
    await expectError(
      await client().post(pub(chat.id, "session/"), { contact: { email: "not an email" } }),
      400,
      "invalid",
    );
    // A name of only invisible characters (a zero-width space and a BOM) is no name: asked for again.
    await expectError(
      await client().post(pub(chat.id, "session/"), { contact: { name: " \u200b\ufeff " } }),
      400,
      "invalid",
    );
    expect(await contactsOf(owner.organizationId)).toBe(before);
    const session = await startSession(chat.id, { contact: { name: "Ada", email: "ada@example.com" } });
    expect(session.contact).toMatchObject({ name: "Ada", email: "ada@example.com" });
  });

  it("private web chats accept good identities only", async () => {
    const owner = await seedOwner();
    const chat = await seedWebChat(owner, { accessType: "private" });
    await expectError(
      await client().post(pub(chat.id, "session/"), { contact: { sourceId: "user-1", identityToken: "00" } }),
      401,
      "not_authenticated",
    );
    const secret = await newIdentitySecret(owner, chat.id);
    expect(secret).toMatch(/^wcs_/);
    // Nothing identifies the visitor: refused.
    await expectError(await client().post(pub(chat.id, "session/"), {}), 401, "not_authenticated");
    // A token signed with another secret: refused.
    await expectError(
      await client().post(pub(chat.id, "session/"), {
        contact: { sourceId: "user-1", identityToken: await identityDigest("wrong", "user-1") },
      }),
      401,
      "not_authenticated",
    );
    // Someone else's sourceId with my signature: refused.
    await expectError(
      await client().post(pub(chat.id, "session/"), {
        contact: { sourceId: "user-2", identityToken: await identityDigest(secret, "user-1") },
      }),
      401,
      "not_authenticated",
    );
    // Expired identity.
    const past = Math.floor(Date.now() / 1000) - 10;
    await expectError(
      await client().post(pub(chat.id, "session/"), {
        contact: await signedContact(secret, "user-1", past),
      }),
      401,
      "not_authenticated",
    );
    // Good.
    const good = await startSession(chat.id, {
      contact: { name: "Grace", ...(await signedContact(secret, "user-1")) },
    });
    expect(good.contact).toMatchObject({ name: "Grace", identified: true });
    const future = Math.floor(Date.now() / 1000) + 600;
    const timed = await startSession(chat.id, {
      contact: await signedContact(secret, "user-1", future),
    });
    expect(timed.contact.id).toBe(good.contact.id);
    // A renewal without the identity is not enough for a private web chat.
    await expectError(await client().post(pub(chat.id, "session/"), { token: good.token }), 401, "not_authenticated");
  });

  it("a web chat made private refuses the anonymous tokens it gave while public", async () => {
    const owner = await seedOwner();
    const chat = await seedWebChat(owner);
    const visitor = client();
    const session = await startSession(chat.id, {}, visitor);
    expect((await visitor.get(pub(chat.id, "conversations/"), session.token)).status).toBe(200);
    const patched = await owner.fetch("PATCH", `/web-chats/${chat.id}/`, { accessType: "private" });
    expect(patched.status, await patched.clone().text()).toBe(200);
    await expectError(await visitor.get(pub(chat.id, "conversations/"), session.token), 401, "not_authenticated");
    await expectError(
      await visitor.post(pub(chat.id, "messages/"), { content: "still here?" }, session.token),
      401,
      "not_authenticated",
    );
  });

  it("a new identity secret ends the sessions the old one vouched for", async () => {
    const owner = await seedOwner();
    const chat = await seedWebChat(owner, { accessType: "private" });
    const newSecret = () => newIdentitySecret(owner, chat.id);
    const visitor = client();
    const signIn = async (secret: string) =>
      startSession(chat.id, { contact: await signedContact(secret, "user-7") }, visitor);
    const old = await signIn(await newSecret());
    expect((await visitor.get(pub(chat.id, "conversations/"), old.token)).status).toBe(200);
    const secret = await newSecret();
    await expectError(await visitor.get(pub(chat.id, "conversations/"), old.token), 401, "not_authenticated");
    // Signed again with the new secret: the same contact, and its token works.
    const again = await signIn(secret);
    expect(again.contact.id).toBe(old.contact.id);
    expect((await visitor.get(pub(chat.id, "conversations/"), again.token)).status).toBe(200);
  });

  it("an identity's token lapses with the identity", async () => {
    const owner = await seedOwner();
    const chat = await seedWebChat(owner, { accessType: "private" });
    const secret = await newIdentitySecret(owner, chat.id);
    const until = Math.floor(Date.now() / 1000) + 60;
    const session = await startSession(chat.id, {
      contact: await signedContact(secret, "user-8", until),
    });
    expect(Number(session.expiresAt)).toBe(until * 1000);
  });

  it("two first sessions of one signed identity at once make one contact (not two, one losing its chats)", async () => {
    const owner = await seedOwner();
    const chat = await seedWebChat(owner, { accessType: "private" });
    const secret = await newIdentitySecret(owner, chat.id);
    const body = { contact: await signedContact(secret, "site-user-7") };
    const [a, b] = await Promise.all([startSession(chat.id, body), startSession(chat.id, body)]);
    const made = await count(
      owner.organizationId,
      "contacts WHERE organization_id = ? AND source_id = ?",
      owner.organizationId,
      "site-user-7",
    );
    // What two contacts cost the visitor: each tab wrote in its own, and the next session (the oldest contact) no
    // longer listed the other tab's conversation.
    const c = client();
    for (const s of [a, b]) await (await c.post(pub(chat.id, "messages/"), { content: "hello" }, s.token)).text();
    const next = await startSession(chat.id, body);
    expect({
      sameContact: a.contact.id === b.contact.id,
      contacts: made,
      conversationsListed: next.conversations.length,
    }).toEqual({ sameContact: true, contacts: 1, conversationsListed: 2 });
  });

  it("a signed identity is never a messaging channel's contact whose platform id is the same string", async () => {
    const owner = await seedOwner();
    const chat = await seedWebChat(owner, { accessType: "private" });
    const telegram = await createInbox(owner, { channelType: "telegram" });
    const person = await createContact(owner, {
      name: "Telegram person",
      sourceId: "4242",
      inboxes: [{ id: telegram.id }],
    });
    const secret = await newIdentitySecret(owner, chat.id);
    const session = await startSession(chat.id, {
      contact: { name: "Site user", ...(await signedContact(secret, "4242")) },
    });
    expect(session.contact.id).not.toBe(person.id);
    expect((await storedContact(owner.organizationId, person.id)).name).toBe("Telegram person");
    // A contact the business made for the web chat's inbox with the site's id is the visitor's.
    const customer = await createContact(owner, {
      name: "Customer",
      sourceId: "site-9",
      inboxes: [{ id: chat.inboxId }],
    });
    const signed = await startSession(chat.id, {
      contact: await signedContact(secret, "site-9"),
    });
    expect(signed.contact).toMatchObject({ id: customer.id, name: "Customer" });
    // So is one the business made without an inbox: it belongs to no platform whose ids could collide.
    const unlinked = await createContact(owner, { name: "Unlinked", sourceId: "site-10" });
    const third = await startSession(chat.id, {
      contact: await signedContact(secret, "site-10"),
    });
    expect(third.contact).toMatchObject({ id: unlinked.id, name: "Unlinked" });
  });

  it("a new identity secret needs inbox.manage and is the web chat's own organization's", async () => {
    const owner = await seedOwner();
    const chat = await seedWebChat(owner);
    const stranger = await seedOwner();
    await expectError(await stranger.fetch("POST", `/web-chats/${chat.id}/identity-secret/`), 404, "not_found");
    await expectError(
      await client().post(`/api/v1/web-chats/${chat.id}/identity-secret/`, {}),
      401,
      "not_authenticated",
    );
    const record = await bodyOf<"GET /web-chats/{id}/">(await owner.fetch("GET", `/web-chats/${chat.id}/`));
    expect(JSON.stringify(record)).not.toContain("identitySecret");
  });
});
