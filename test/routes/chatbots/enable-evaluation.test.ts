import { describe, expect, it } from "vitest";
import { PREFIXES, call, expectError, seedMember, seedOwner } from "../../harness";
import { expectInvalid } from "../../support/refusals";
import { createChatbot } from "../../fixtures/chatbots";
import { ok } from "./helpers";

describe("PATCH /chatbots/{id}/enable-evaluation/", () => {
  it.each(PREFIXES)("switches evaluation on without a body, off and on with one (%s)", async (prefix) => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const path = `/chatbots/${bot.id}/enable-evaluation/`;
    expect(
      await ok<"PATCH /chatbots/{id}/enable-evaluation/">(await owner.fetch("PATCH", path, undefined, { prefix })),
    ).toMatchObject({
      id: bot.id,
      enableEvaluation: true,
    });
    expect(
      await ok<"PATCH /chatbots/{id}/enable-evaluation/">(await owner.fetch("PATCH", path, {}, { prefix })),
    ).toMatchObject({ enableEvaluation: true });
    expect(
      await ok<"PATCH /chatbots/{id}/enable-evaluation/">(
        await owner.fetch("PATCH", path, { enable_evaluation: false }, { prefix }),
      ),
    ).toMatchObject({
      enableEvaluation: false,
    });
    expect(await ok<"GET /chatbots/{id}/">(await owner.fetch("GET", `/chatbots/${bot.id}/`))).toMatchObject({
      enableEvaluation: false,
    });
  });

  it("400 naming enableEvaluation for a non-boolean; the value is unchanged", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    await expectInvalid(
      await owner.fetch("PATCH", `/chatbots/${bot.id}/enable-evaluation/`, { enableEvaluation: "yes" }),
      "enableEvaluation",
    );
    expect(await ok<"GET /chatbots/{id}/">(await owner.fetch("GET", `/chatbots/${bot.id}/`))).toMatchObject({
      enableEvaluation: false,
    });
  });

  it("403 without chatbot.manage; 404 for another organization; 401", async () => {
    const owner = await seedOwner();
    const viewer = await seedMember(owner, ["chatbot.view"]);
    const bot = await createChatbot(owner, { groups: [{ id: viewer.groupId }] });
    const path = `/chatbots/${bot.id}/enable-evaluation/`;
    await expectError(await viewer.fetch("PATCH", path, { enableEvaluation: true }), 403, "permission_denied");
    await expectError(await (await seedOwner()).fetch("PATCH", path, { enableEvaluation: true }), 404, "not_found");
    await expectError(await call("PATCH", `/api/v1${path}`), 401, "not_authenticated");
    expect(await ok<"GET /chatbots/{id}/">(await owner.fetch("GET", `/chatbots/${bot.id}/`))).toMatchObject({
      enableEvaluation: false,
    });
  });
});
