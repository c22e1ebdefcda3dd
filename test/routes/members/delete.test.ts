import { eq } from "drizzle-orm";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { chatbots, inboxes, members } from "../../../src/db/schema";
import { runPurges } from "../../../src/services/purges";
import { dataDbs } from "../../../src/services/shards";
import {
  CONFIGURED_PLANS,
  NO_SUCH_ID,
  PREFIXES,
  call,
  countInParts,
  db,
  expectError,
  seedMember,
  seedOwner,
  setPlan,
  unique,
} from "../../harness";
import { expectDenied, expectNotFound } from "../../support/refusals";
import { LOCAL_LLM, createChatbot } from "../../fixtures/chatbots";
import { ownOrganizationOf } from "../chatbots/helpers";
import { memberIdOf } from "./helpers";

const path = (orgId: string, id: string) => `/organizations/${orgId}/members/${id}/`;
const exists = async (id: string) => (await db().select().from(members).where(eq(members.id, id))).length === 1;

describe("DELETE /organizations/{organizationPk}/members/{id}/", () => {
  it.each(PREFIXES)("the owner removes a member under %s (204), after which the member is gone", async (prefix) => {
    const owner = await seedOwner();
    const member = await seedMember(owner, ["chatbot.view"]);
    const res = await owner.fetch("DELETE", path(owner.organizationId, member.memberId), undefined, { prefix });
    expect(res.status).toBe(204);
    expect(await exists(member.memberId)).toBe(false);
    await expectNotFound(await member.fetch("GET", `/organizations/${owner.organizationId}/members/current/`));
  });

  it("a member may leave without member.manage", async () => {
    const owner = await seedOwner();
    const member = await seedMember(owner, []);
    expect((await member.fetch("DELETE", path(owner.organizationId, member.memberId))).status).toBe(204);
    expect(await exists(member.memberId)).toBe(false);
  });

  it(
    "a removed member's personal assistants hosted here go with them (default inbox, conversations purged), " +
      "freeing their plan place; those hosted by their own organization stay",
    async () => {
      const settings = CONFIGURED_PLANS;
      const owner = await seedOwner();
      await setPlan(owner.organizationId, "free");
      const member = await seedMember(owner, ["chatbot.manage", "conversation.manage"]);
      const hosted = await createChatbot(member, { name: unique("mine"), organization: "" }, settings);
      const own = await ownOrganizationOf(member.userId);
      const elsewhere = await member.fetch(
        "POST",
        "/chatbots/",
        { name: unique("mine"), largeLanguageModel: LOCAL_LLM, organization: "" },
        { headers: { "X-Organization-Id": own } },
      );
      expect(elsewhere.status, await elsewhere.clone().text()).toBe(201);
      const asked = await member.fetch("POST", `/chatbots/${hosted.id}/completions/`, { message: { content: "hi" } });
      expect(asked.status, await asked.clone().text()).toBe(200);
      const inInbox = () =>
        countInParts(owner.organizationId, "conversations", "inbox_id = ?", hosted.defaultInbox!.id);
      expect(await inInbox()).toBe(1);
      // Free plan: 3 assistants, the member's personal one hosted here among them.
      for (let i = 0; i < 2; i++) await createChatbot(owner, {}, settings);
      const body = { name: unique("fourth"), largeLanguageModel: LOCAL_LLM };
      await expectError(await owner.fetch("POST", "/chatbots/", body, { settings }), 403, "permission_denied");

      expect((await owner.fetch("DELETE", path(owner.organizationId, member.memberId))).status).toBe(204);
      // Only its creator could see it: nobody here could have deleted it once they left.
      expect(await db().select().from(chatbots).where(eq(chatbots.id, hosted.id))).toEqual([]);
      expect(await db().select().from(inboxes).where(eq(inboxes.id, hosted.defaultInbox!.id))).toEqual([]);
      for (const plane of dataDbs(env)) await runPurges(plane, Date.now());
      expect(await inInbox()).toBe(0);
      const { id: ownId } = (await elsewhere.json()) as { id: string };
      expect(await db().select({ id: chatbots.id }).from(chatbots).where(eq(chatbots.id, ownId))).toEqual([
        { id: ownId },
      ]);
      const third = await owner.fetch("POST", "/chatbots/", body, { settings });
      expect(third.status, await third.clone().text()).toBe(201);
    },
  );

  it("400 for the owner, even by themselves or a member manager, and the owner stays", async () => {
    const owner = await seedOwner();
    const manager = await seedMember(owner, ["member.manage"]);
    const ownerMemberId = await memberIdOf(owner.organizationId, owner.userId);
    await expectError(await owner.fetch("DELETE", path(owner.organizationId, ownerMemberId)), 400, "invalid");
    await expectError(await manager.fetch("DELETE", path(owner.organizationId, ownerMemberId)), 400, "invalid");
    expect(await exists(ownerMemberId)).toBe(true);
  });

  it("401 without a key", async () => {
    const owner = await seedOwner();
    const member = await seedMember(owner);
    await expectError(
      await call("DELETE", `/api/v1${path(owner.organizationId, member.memberId)}`),
      401,
      "not_authenticated",
    );
    expect(await exists(member.memberId)).toBe(true);
  });

  it("403 when removing someone else without member.manage; member.manage may", async () => {
    const owner = await seedOwner();
    const viewer = await seedMember(owner, ["member.view"]);
    const target = await seedMember(owner);
    await expectDenied(await viewer.fetch("DELETE", path(owner.organizationId, target.memberId)));
    expect(await exists(target.memberId)).toBe(true);
    const manager = await seedMember(owner, ["member.manage"]);
    expect((await manager.fetch("DELETE", path(owner.organizationId, target.memberId))).status).toBe(204);
  });

  it("404 for another organization's member, and nothing is removed", async () => {
    const owner = await seedOwner();
    const member = await seedMember(owner);
    const stranger = await seedOwner();
    await expectNotFound(await stranger.fetch("DELETE", path(owner.organizationId, member.memberId)));
    await expectNotFound(await stranger.fetch("DELETE", path(stranger.organizationId, member.memberId)));
    await expectNotFound(await owner.fetch("DELETE", path(owner.organizationId, NO_SUCH_ID)));
    expect(await exists(member.memberId)).toBe(true);
  });
});
