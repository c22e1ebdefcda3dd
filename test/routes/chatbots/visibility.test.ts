import { describe, expect, it } from "vitest";
import { expectError, seedMember, seedOwner } from "../../harness";
import { expectInvalid } from "../../support/refusals";
import { createChatbot } from "../../fixtures/chatbots";
import { ok, ownOrganizationOf, page } from "./helpers";

describe("who sees an assistant", () => {
  it(
    "a member sees assistants they created, even after losing their permissions, and changes them only with " +
      "chatbot.manage",
    async () => {
      const owner = await seedOwner();
      const manager = await seedMember(owner, ["chatbot.manage"]);
      const bot = await createChatbot(manager);
      expect(await ok<"GET /chatbots/{id}/">(await manager.fetch("GET", `/chatbots/${bot.id}/`))).toMatchObject({
        canUpdate: true,
      });
      expect((await owner.fetch("GET", `/chatbots/${bot.id}/`)).status).toBe(200);
      const removed = await owner.fetch(
        "POST",
        `/organizations/${owner.organizationId}/members/${manager.memberId}/update-groups/`,
        { groups: [] },
      );
      expect(removed.status).toBe(200);
      expect(await ok<"GET /chatbots/{id}/">(await manager.fetch("GET", `/chatbots/${bot.id}/`))).toMatchObject({
        canUpdate: false,
        canDelete: false,
      });
      expect((await page<"GET /chatbots/">(await manager.fetch("GET", "/chatbots/"))).results.map((b) => b.id)).toEqual(
        [bot.id],
      );
      await expectError(await manager.fetch("PATCH", `/chatbots/${bot.id}/`, { name: "x" }), 403, "permission_denied");
    },
  );

  it("a personal assistant is visible to its creator only, from any organization they act in", async () => {
    const owner = await seedOwner();
    const member = await seedMember(owner, ["chatbot.manage"]);
    const bot = await createChatbot(member, { organization: null, name: "Mine" });
    expect(bot).toMatchObject({ organization: null, groups: [], canUpdate: true });
    // Its default inbox lives in the organization it was created in.
    expect(bot.defaultInbox).toMatchObject({ name: "Mine API" });
    await expectError(await owner.fetch("GET", `/chatbots/${bot.id}/`), 404, "not_found");
    expect((await page<"GET /chatbots/">(await owner.fetch("GET", "/chatbots/"))).results).toEqual([]);
    const elsewhere = { headers: { "X-Organization-Id": await ownOrganizationOf(member.userId) } };
    expect((await member.fetch("GET", `/chatbots/${bot.id}/`, undefined, elsewhere)).status).toBe(200);
    expect(
      (await page<"GET /chatbots/">(await member.fetch("GET", "/chatbots/", undefined, elsewhere))).results.map(
        (b) => b.id,
      ),
    ).toEqual([bot.id]);
  });

  it("a personal assistant has no groups", async () => {
    const owner = await seedOwner();
    const member = await seedMember(owner, ["chatbot.manage"]);
    await expectInvalid(
      await member.fetch("POST", "/chatbots/", {
        name: "p",
        largeLanguageModel: "00000000-0000-7000-8000-000000000001",
        organization: "",
        groups: [{ id: member.groupId }],
      }),
      "groups",
    );
  });
});
