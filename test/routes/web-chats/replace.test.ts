import { describe, expect, it } from "vitest";
import { PREFIXES, call, expectError, seedMember, seedOwner, unique } from "../../harness";
import { expectDenied, expectNotFound, expectInvalid } from "../../support/refusals";
import { createInbox } from "../inboxes/fixtures";
import { fullBody, storedWebChat } from "./fixtures";
import { bodyOf } from "../../support/api";

describe("PUT /web-chats/{id}/", () => {
  it.each(PREFIXES)("replaces the settings; themes are replaced whole (%s)", async (prefix) => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    const id = inbox.channel!.id;
    await owner.fetch("PATCH", `/web-chats/${id}/`, { theme: { navbarTextColor: "#fff" } });
    const domain = `${unique("help")}.example.org`;
    const settings = fullBody(inbox.id, { enableFileUpload: true, defaultThemeMode: "dark" });
    const body = { ...settings, customDomain: { domain, id: "ignored", status: "active" } };
    const res = await owner.fetch("PUT", `/web-chats/${id}/`, body, { prefix });
    expect(res.status, await res.clone().text()).toBe(200);
    const chat = await bodyOf<"PUT /web-chats/{id}/">(res);
    // Every setting comes back as sent, the inbox with its name; a setting the body leaves out has its default.
    expect(chat).toMatchObject({ ...settings, enableShowPoweredBy: true, inbox: { id: inbox.id, name: inbox.name } });
    expect(chat.theme).not.toHaveProperty("navbarTextColor");
    expect(chat.customDomain).toMatchObject({ domain, status: "pending" });
    expect(chat.customDomain!.id).not.toBe("ignored");
  });

  it("400 naming each missing required field, and nothing written", async () => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    const id = inbox.channel!.id;
    const err = await expectError(
      await owner.fetch("PUT", `/web-chats/${id}/`, { name: "Only a name" }),
      400,
      "invalid",
    );
    expect(Object.keys(err.errors!)).toEqual(
      expect.arrayContaining([
        "enableSpeech",
        "displayGreeting",
        "displayConversationStarters",
        "theme",
        "darkTheme",
        "accessType",
        "inbox",
      ]),
    );
    const other = await createInbox(owner);
    await expectInvalid(await owner.fetch("PUT", `/web-chats/${id}/`, fullBody(other.id)), "inbox");
    expect((await storedWebChat(id)).name).toBe(inbox.name);
  });

  it("409 for a custom domain another web chat serves; keeping one's own domain keeps its id", async () => {
    const owner = await seedOwner();
    const stranger = await seedOwner();
    const a = await createInbox(owner);
    const b = await createInbox(stranger);
    const domain = `${unique("taken")}.example.com`;
    const first = await bodyOf<"PUT /web-chats/{id}/">(
      await owner.fetch("PUT", `/web-chats/${a.channel!.id}/`, fullBody(a.id, { customDomain: { domain } })),
    );
    const again = await bodyOf<"PUT /web-chats/{id}/">(
      await owner.fetch("PUT", `/web-chats/${a.channel!.id}/`, fullBody(a.id, { customDomain: { domain } })),
    );
    expect(again.customDomain).toEqual(first.customDomain);
    // A claim holds the domain once verified (test/routes/widget/pages.test.ts has claims before that).
    const record = {
      [`_assistant-platform-challenge.${domain}`]: [`assistant-platform-verification=${first.customDomain!.id}`],
    };
    const verified = await owner.fetch("POST", `/web-chats/${a.channel!.id}/custom-domain/verify/`, undefined, {
      settings: { DNS_STATIC_TXT: JSON.stringify(record) },
    });
    expect((await bodyOf<"POST /web-chats/{id}/custom-domain/verify/">(verified)).customDomain!.status).toBe("active");
    await expectError(
      await stranger.fetch("PUT", `/web-chats/${b.channel!.id}/`, fullBody(b.id, { customDomain: { domain } })),
      409,
      "conflict",
    );
    expect((await storedWebChat(b.channel!.id)).settings.customDomain ?? null).toBeNull();
  });

  it("403 for a member with inbox.view only", async () => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    const viewer = await seedMember(owner, ["inbox.view"]);
    await expectDenied(await viewer.fetch("PUT", `/web-chats/${inbox.channel!.id}/`, fullBody(inbox.id)));
    expect((await storedWebChat(inbox.channel!.id)).name).toBe(inbox.name);
  });

  it("404 for another organization's web chat", async () => {
    const owner = await seedOwner();
    const theirs = await createInbox(await seedOwner());
    await expectNotFound(await owner.fetch("PUT", `/web-chats/${theirs.channel!.id}/`, fullBody(theirs.id)));
    expect((await storedWebChat(theirs.channel!.id)).name).toBe(theirs.name);
  });

  it("401 without a key", async () => {
    await expectError(
      await call("PUT", `/api/v1/web-chats/${crypto.randomUUID()}/`, fullBody(crypto.randomUUID())),
      401,
      "not_authenticated",
    );
  });
});
