import { describe, expect, it } from "vitest";
import { PREFIXES, call, expectError, seedMember, seedOwner } from "../../harness";
import { expectUnknownIds } from "../../support/refusals";
import { createChatbot } from "../../fixtures/chatbots";
import { ok } from "./helpers";

describe("GET /chatbots/{id}/", () => {
  it.each(PREFIXES)("returns the assistant under %s", async (prefix) => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner, { instructions: "Be kind." });
    expect(
      await ok<"GET /chatbots/{id}/">(await owner.fetch("GET", `/chatbots/${bot.id}/`, undefined, { prefix })),
    ).toEqual(bot);
  });

  it("a member with chatbot.view sees an assistant of one of their groups, read-only", async () => {
    const owner = await seedOwner();
    const viewer = await seedMember(owner, ["chatbot.view"]);
    const bot = await createChatbot(owner, { groups: [{ id: viewer.groupId }] });
    expect(await ok<"GET /chatbots/{id}/">(await viewer.fetch("GET", `/chatbots/${bot.id}/`))).toMatchObject({
      id: bot.id,
      canUpdate: false,
      canDelete: false,
    });
  });

  it(
    "404 for a member with chatbot.view outside the assistant's groups, and for a group member without " +
      "chatbot.view",
    async () => {
      const owner = await seedOwner();
      const viewer = await seedMember(owner, ["chatbot.view"]);
      const plain = await seedMember(owner, ["inbox.view"]);
      const bot = await createChatbot(owner, { groups: [{ id: plain.groupId }] });
      await expectError(await viewer.fetch("GET", `/chatbots/${bot.id}/`), 404, "not_found");
      await expectError(await plain.fetch("GET", `/chatbots/${bot.id}/`), 404, "not_found");
    },
  );

  it("404 for another organization's assistant, unknown and malformed ids; 401 without a key", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const stranger = await seedOwner();
    await expectUnknownIds(stranger, "/chatbots/", bot.id);
    await expectError(
      await stranger.fetch("GET", `/chatbots/${bot.id}/`, undefined, {
        headers: { "X-Organization-Id": owner.organizationId },
      }),
      404,
      "not_found",
    );
    await expectError(await call("GET", `/api/v1/chatbots/${bot.id}/`), 401, "not_authenticated");
  });
});
