import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { decryptSecret } from "../../../src/lib/crypto";
import { PREFIXES, call, data, db, expectError, seedMember, seedOwner } from "../../harness";
import { replaceIdentitySecret, updateWebChat } from "../../../src/services/web-chats";
import { expectDenied, expectNotFound, expectInvalid } from "../../support/refusals";
import { createInbox } from "../inboxes/fixtures";
import { storedWebChat } from "./fixtures";
import { bodyOf } from "../../support/api";
import { updatingAfter } from "../../support/races";

describe("PATCH /web-chats/{id}/", () => {
  it.each(PREFIXES)("changes only the given fields; themes merge key by key (%s)", async (prefix) => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    const path = `/web-chats/${inbox.channel!.id}/`;
    const patch = (body: unknown) => owner.fetch("PATCH", path, body, { prefix });
    await patch({
      theme: { primaryColor: "#111", navbarTextColor: "#222" },
      description: "About us",
      enableShowPoweredBy: false,
    });
    const res = await patch({
      theme: { navbar_text_color: "#333", primaryColor: null },
      dark_theme: { chatbotMessageBackgroundShadowEnabled: true },
      isActive: false,
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const chat = await bodyOf<"PATCH /web-chats/{id}/">(res);
    expect(chat.theme).toEqual({ navbarTextColor: "#333" });
    expect(chat.darkTheme).toEqual({ chatbotMessageBackgroundShadowEnabled: true });
    expect(chat).toMatchObject({
      name: inbox.name,
      description: "About us",
      enableShowPoweredBy: false,
      isActive: false,
      accessType: "public",
    });
  });

  it("null clears optional fields such as the custom domain and links", async () => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    const path = `/web-chats/${inbox.channel!.id}/`;
    await owner.fetch("PATCH", path, { logo: "https://cdn.example.com/l.png", backUrl: "/home" });
    const chat = await bodyOf<"PATCH /web-chats/{id}/">(
      await owner.fetch("PATCH", path, { logo: null, customDomain: null }),
    );
    expect(chat).toMatchObject({ logo: null, backUrl: "/home", customDomain: null });
  });

  it("400 naming the field, and nothing written", async () => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    const id = inbox.channel!.id;
    for (const [body, field] of [
      [{ theme: { primaryColor: "#12345" } }, "theme.primaryColor"],
      [{ theme: { unknownKey: "#123" } }, "theme"],
      [{ name: "" }, "name"],
      [{ backUrl: "javascript:alert(1)" }, "backUrl"],
    ] as const) {
      await expectInvalid(await owner.fetch("PATCH", `/web-chats/${id}/`, body), field);
    }
    const row = await storedWebChat(id);
    expect(row.name).toBe(inbox.name);
    expect(row.settings.theme).toEqual({});
  });

  it("403 for a member with inbox.view only; inbox.manage may patch", async () => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    const path = `/web-chats/${inbox.channel!.id}/`;
    await expectDenied(await (await seedMember(owner, ["inbox.view"])).fetch("PATCH", path, { name: "New" }));
    expect((await storedWebChat(inbox.channel!.id)).name).toBe(inbox.name);
    expect((await (await seedMember(owner, ["inbox.manage"])).fetch("PATCH", path, { name: "New" })).status).toBe(200);
  });

  it("404 for another organization's web chat", async () => {
    const owner = await seedOwner();
    const theirs = await createInbox(await seedOwner());
    await expectNotFound(await owner.fetch("PATCH", `/web-chats/${theirs.channel!.id}/`, { name: "Mine" }));
    expect((await storedWebChat(theirs.channel!.id)).name).toBe(theirs.name);
  });

  it("401 without a key", async () => {
    await expectError(
      await call("PATCH", `/api/web-chats/${crypto.randomUUID()}/`, { name: "x" }),
      401,
      "not_authenticated",
    );
  });
});

describe("PATCH /web-chats/{id}/ beside other writes of the settings", () => {
  it("leaves an identity secret replaced between its read and its write as it is", async () => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    const id = inbox.channel!.id;
    const { organizationId } = owner;
    await replaceIdentitySecret(env, db(), organizationId, id);
    let secret = "";
    const rotate = async () => void (secret = await replaceIdentitySecret(env, db(), organizationId, id));
    const patched = await updateWebChat(
      env,
      updatingAfter(db(), rotate),
      await data(organizationId),
      organizationId,
      id,
      { description: "About us" },
      true,
      "https://assistants.example.com",
    );
    expect(patched.description).toBe("About us");
    expect(secret).toMatch(/^wcs_/);
    const stored = (await storedWebChat(id)).settings;
    // The secret rotated meanwhile is the one that works, not the one the PATCH read.
    expect(await decryptSecret(stored.identitySecretSealed!, env.ENCRYPTION_KEY)).toBe(secret);
    expect(stored.description).toBe("About us");
  });

  it("two PATCHes of different theme keys at once keep both", async () => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    const id = inbox.channel!.id;
    const path = `/web-chats/${id}/`;
    await owner.fetch("PATCH", path, { theme: { navbarTextColor: "#222" }, darkTheme: { primaryColor: "#000" } });
    // The other PATCH lands between this one's read and its write.
    const other = async () => {
      const body = {
        theme: { conversationBackgroundColor: "#333", navbarTextColor: null },
        darkTheme: { navbarTextColor: "#fff" },
      };
      expect((await owner.fetch("PATCH", path, body)).status).toBe(200);
    };
    const patched = await updateWebChat(
      env,
      updatingAfter(db(), other),
      await data(owner.organizationId),
      owner.organizationId,
      id,
      { theme: { primaryColor: "#111" }, darkTheme: { primaryColor: null } },
      true,
      "http://localhost",
    );
    const both = { primaryColor: "#111", conversationBackgroundColor: "#333" };
    expect(patched.theme).toEqual(both);
    expect(patched.darkTheme).toEqual({ navbarTextColor: "#fff" });
    const stored = (await storedWebChat(id)).settings;
    expect(stored.theme).toEqual(both);
    expect(stored.darkTheme).toEqual({ navbarTextColor: "#fff" });
  });

  it("a PATCH racing its inbox's delete is a 404, not a 500", async () => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    const id = inbox.channel!.id;
    const remove = async () => expect((await owner.fetch("DELETE", `/inboxes/${inbox.id}/`)).status).toBe(204);
    const outcome = await updateWebChat(
      env,
      updatingAfter(db(), remove),
      await data(owner.organizationId),
      owner.organizationId,
      id,
      { description: "About us" },
      true,
      "http://localhost",
    ).then(
      () => "written",
      (err: unknown) => err,
    );
    // It was webChatRecord of the null the final read gave: a TypeError, which the API answers 500.
    expect(outcome).toMatchObject({ status: 404 });
  });
});
