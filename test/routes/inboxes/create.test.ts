import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { chatbotGroups, inboxes, webChats } from "../../../src/db/schema";
import { uuidv7 } from "../../../src/lib/ids";
import { PREFIXES, call, db, expectError, seedMember, seedOwner } from "../../harness";
import { expectDenied, expectInvalid } from "../../support/refusals";
import { createInbox, seedChatbot } from "./fixtures";
import { bodyOf } from "../../support/api";

const countInboxes = async (organizationId: string) =>
  (await db().select().from(inboxes).where(eq(inboxes.organizationId, organizationId))).length;

describe("POST /inboxes/", () => {
  it.each(PREFIXES)("a web inbox comes with its web chat (%s)", async (prefix) => {
    const owner = await seedOwner();
    const bot = await seedChatbot(owner);
    const res = await owner.fetch(
      "POST",
      "/inboxes/",
      { name: "Website", channel_type: "web", chatbot: { id: bot.id } },
      { prefix },
    );
    expect(res.status, await res.clone().text()).toBe(201);
    const inbox = await bodyOf<"POST /inboxes/">(res);
    expect(inbox).toMatchObject({
      name: "Website",
      channelType: "web",
      chatbot: bot,
      unreadConversationsCount: 0,
      isDefault: false,
    });
    expect(inbox.channel).toMatchObject({ name: "Website" });
    const chat = await owner.fetch("GET", `/web-chats/${inbox.channel!.id}/`);
    expect(await chat.json()).toMatchObject({
      name: "Website",
      accessType: "public",
      enableSpeech: false,
      displayGreeting: "",
      displayConversationStarters: [],
      theme: {},
      darkTheme: {},
      isActive: true,
      enableShowPoweredBy: true,
      enableFileUpload: false,
      inbox: { id: inbox.id, name: "Website" },
    });
  });

  it("other channels have no web chat and may have no assistant", async () => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner, { channelType: "telegram" });
    expect(inbox).toMatchObject({ channelType: "telegram", chatbot: null, channel: null });
    expect(await db().select().from(webChats).where(eq(webChats.inboxId, inbox.id))).toHaveLength(0);
  });

  it.each([
    [{ channelType: "web" }, "name"],
    [{ name: "x", channelType: "fax" }, "channelType"],
    [{ name: "x", channelType: "web", chatbot: { id: "nope" } }, "chatbot.id"],
  ])("bad input %j is a 400 naming %s, and writes nothing", async (body, field) => {
    const owner = await seedOwner();
    const err = await expectError(await owner.fetch("POST", "/inboxes/", body), 400, "invalid");
    expect(Object.keys(err.errors!)).toContain(field);
    expect(await countInboxes(owner.organizationId)).toBe(0);
  });

  it("an assistant of another organization is a 400 naming chatbot", async () => {
    const owner = await seedOwner();
    const stranger = await seedOwner();
    const theirs = await seedChatbot(stranger);
    await expectInvalid(
      await owner.fetch("POST", "/inboxes/", { name: "x", channelType: "web", chatbot: { id: theirs.id } }),
      "chatbot",
    );
    expect(await countInboxes(owner.organizationId)).toBe(0);
  });

  it(
    "an inbox belongs to its assistant's organization when the caller may manage inboxes there (CONTRACT " +
      "section 6)",
    async () => {
      const owner = await seedOwner();
      const bot = await seedChatbot(owner);
      // A member of owner's organization (with inbox.manage and sight of every assistant) whose key acts in their own
      // organization.
      const member = await seedMember(owner, ["inbox.manage", "chatbot.view"]);
      await db().insert(chatbotGroups).values({ id: uuidv7(), chatbotId: bot.id, groupId: member.groupId! });
      const inOwnOrganization = (actor: { key: string }, body: unknown) =>
        call("POST", "/api/v1/inboxes/", body, { Authorization: `Api-Key ${actor.key}` });
      const res = await inOwnOrganization(member, {
        name: "Elsewhere",
        channelType: "telegram",
        chatbot: { id: bot.id },
      });
      expect(res.status, await res.clone().text()).toBe(201);
      const inbox = await bodyOf<"POST /inboxes/">(res);
      const [row] = await db().select().from(inboxes).where(eq(inboxes.id, inbox.id));
      expect(row.organizationId).toBe(owner.organizationId);
      expect(row.chatbotId).toBe(bot.id);
      // Without the permission in the assistant's organization: 403, nothing written.
      const viewer = await seedMember(owner, ["inbox.view", "chatbot.view"]);
      await db().insert(chatbotGroups).values({ id: uuidv7(), chatbotId: bot.id, groupId: viewer.groupId! });
      // An assistant the member cannot see is as good as none: 400 naming chatbot.
      const hidden = await seedChatbot(owner);
      await expectInvalid(
        await inOwnOrganization(member, { name: "Hidden", channelType: "web", chatbot: { id: hidden.id } }),
        "chatbot",
      );
      await expectDenied(await inOwnOrganization(viewer, { name: "No", channelType: "web", chatbot: { id: bot.id } }));
      expect(await countInboxes(owner.organizationId)).toBe(1); // only the one above
    },
  );

  it("403 for a member with inbox.view only; inbox.manage may create", async () => {
    const owner = await seedOwner();
    const viewer = await seedMember(owner, ["inbox.view"]);
    await expectDenied(await viewer.fetch("POST", "/inboxes/", { name: "x", channelType: "web" }));
    expect(await countInboxes(owner.organizationId)).toBe(0);
    const manager = await seedMember(owner, ["inbox.manage"]);
    expect((await manager.fetch("POST", "/inboxes/", { name: "x", channelType: "web" })).status).toBe(201);
  });

  it("401 without a key", async () => {
    await expectError(
      await call("POST", "/api/v1/inboxes/", { name: "x", channelType: "web" }),
      401,
      "not_authenticated",
    );
  });
});
