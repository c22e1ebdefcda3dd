import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { uploads, webChats } from "../../../src/db/schema";
import { createWebChat } from "../../../src/services/web-chats";
import { PREFIXES, call, data, db, expectError, seedMember, seedOwner, unique } from "../../harness";
import { insertingAfter } from "../../support/races";
import { expectDenied } from "../../support/refusals";
import { createInbox, seedBareWebInbox } from "../inboxes/fixtures";
import { bodyOf } from "../../support/api";
import { uploadImage } from "./fixtures";

const chatsOf = (inboxId: string) => db().select().from(webChats).where(eq(webChats.inboxId, inboxId));

describe("POST /web-chats/", () => {
  it.each(PREFIXES)("creates the web chat of a web inbox that has none (%s)", async (prefix) => {
    const owner = await seedOwner();
    const inbox = await seedBareWebInbox(owner);
    const host = `${unique("chat")}.example.com`;
    const res = await owner.fetch(
      "POST",
      "/web-chats/",
      {
        inbox: { id: inbox.id },
        display_greeting: "Hi",
        theme: { primary_color: "#abc" },
        custom_domain: { domain: host.toUpperCase() },
      },
      { prefix },
    );
    expect(res.status, await res.clone().text()).toBe(201);
    const chat = await bodyOf<"POST /web-chats/">(res);
    expect(chat).toMatchObject({
      name: inbox.name,
      displayGreeting: "Hi",
      theme: { primaryColor: "#abc" },
      accessType: "public",
      inbox,
    });
    expect(chat.customDomain).toMatchObject({ domain: host, status: "pending" });
    const listed = await bodyOf<"GET /inboxes/{id}/">(await owner.fetch("GET", `/inboxes/${inbox.id}/`));
    expect(listed.channel).toEqual({ id: chat.id, name: chat.name });
  });

  it("409 when the inbox already has a web chat", async () => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    await expectError(await owner.fetch("POST", "/web-chats/", { inbox: { id: inbox.id } }), 409, "conflict");
    expect(await chatsOf(inbox.id)).toHaveLength(1);
  });

  it("400 naming inbox for a non-web inbox, another organization's inbox or none", async () => {
    const owner = await seedOwner();
    const line = await createInbox(owner, { channelType: "line" });
    const theirs = await seedBareWebInbox(await seedOwner());
    for (const body of [{ inbox: { id: line.id } }, { inbox: { id: theirs.id } }, { name: "x" }]) {
      const err = await expectError(await owner.fetch("POST", "/web-chats/", body), 400, "invalid");
      expect(
        Object.keys(err.errors!).some((k) => k.startsWith("inbox")),
        JSON.stringify(err),
      ).toBe(true);
    }
    expect(await chatsOf(line.id)).toHaveLength(0);
    expect(await chatsOf(theirs.id)).toHaveLength(0);
  });

  it.each([
    [{ theme: { primaryColor: "blue" } }, "theme.primaryColor"],
    [{ theme: { fontFamily: "Arial" } }, "theme"],
    [{ darkTheme: { userMessageBackgroundShadowEnabled: "yes" } }, "darkTheme.userMessageBackgroundShadowEnabled"],
    [{ displayConversationStarters: Array(11).fill("q") }, "displayConversationStarters"],
    [{ displayConversationStarters: ["x".repeat(201)] }, "displayConversationStarters.0"],
    [{ accessType: "secret" }, "accessType"],
    [{ defaultThemeMode: "sepia" }, "defaultThemeMode"],
    [{ customDomain: { domain: "not a host" } }, "customDomain.domain"],
    [{ logo: "javascript:alert(1)" }, "logo"],
    [{ enableFileUpload: "true" }, "enableFileUpload"],
  ])("bad field %j is a 400 naming %s, and writes nothing", async (extra, field) => {
    const owner = await seedOwner();
    const inbox = await seedBareWebInbox(owner);
    const err = await expectError(
      await owner.fetch("POST", "/web-chats/", { inbox: { id: inbox.id }, ...extra }),
      400,
      "invalid",
    );
    expect(Object.keys(err.errors!)).toContain(field);
    expect(await chatsOf(inbox.id)).toHaveLength(0);
  });

  it("403 for a member with inbox.view only", async () => {
    const owner = await seedOwner();
    const inbox = await seedBareWebInbox(owner);
    await expectDenied(
      await (await seedMember(owner, ["inbox.view"])).fetch("POST", "/web-chats/", { inbox: { id: inbox.id } }),
    );
    expect(await chatsOf(inbox.id)).toHaveLength(0);
  });

  it("401 without a key", async () => {
    await expectError(
      await call("POST", "/api/web-chats/", { inbox: { id: crypto.randomUUID() } }),
      401,
      "not_authenticated",
    );
  });
});

describe("POST /web-chats/ beside its inbox's delete", () => {
  it("an inbox deleted between the read and the insert is a 400 naming inbox; nothing left behind", async () => {
    const owner = await seedOwner();
    const inbox = await seedBareWebInbox(owner);
    const { organizationId } = owner;
    const key = await uploadImage(owner, "avatar", "a.png");
    const remove = async () => expect((await owner.fetch("DELETE", `/inboxes/${inbox.id}/`)).status).toBe(204);
    const outcome = await createWebChat(
      env,
      insertingAfter(db(), remove),
      await data(organizationId),
      organizationId,
      { inbox: { id: inbox.id }, avatar: key },
      "http://localhost",
    ).then(
      () => "written",
      (err: unknown) => err,
    );
    // The insert broke its foreign key to the inbox: an error of D1, which the API answered 500.
    expect(outcome).toMatchObject({ status: 400, errors: { inbox: [expect.any(String)] } });
    expect(await chatsOf(inbox.id)).toHaveLength(0);
    const upload = await (await data(organizationId)).select().from(uploads).where(eq(uploads.key, key));
    expect(upload, "the upload stays the caller's, not consumed by a refused write").toHaveLength(1);
  });
});
