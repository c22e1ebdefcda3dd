import { describe, expect, it } from "vitest";
import { call, expectError, NO_SUCH_ID, PREFIXES, seedMember, seedOwner } from "../../harness";
import { expectNotFound } from "../../support/refusals";
import { createChatbot, LOCAL_LLM } from "../../fixtures/chatbots";
import { upstreamModel } from "../chat-completions/fixtures";
import { bodyOf } from "../../support/api";

// The field `fallbackLargeLanguageModel` of an assistant (what it does in a turn:
// test/routes/completions/fallback-model.test.ts).
describe("an assistant's fallbackLargeLanguageModel", () => {
  it(
    "is set on create, read back with its name under both prefixes, changed by PATCH and cleared with null or " +
      "empty",
    async () => {
      const owner = await seedOwner();
      const second = await upstreamModel(owner);
      const bot = await createChatbot(owner, { fallbackLargeLanguageModel: second.id });
      expect(bot.fallbackLargeLanguageModel).toEqual({ id: second.id, name: second.name });
      for (const prefix of PREFIXES) {
        const res = await owner.fetch("GET", `/chatbots/${bot.id}/`, undefined, { prefix });
        expect((await bodyOf<"GET /chatbots/{id}/">(res)).fallbackLargeLanguageModel).toEqual({
          id: second.id,
          name: second.name,
        });
      }
      // snake_case works too, and a record without the field has none.
      expect((await createChatbot(owner)).fallbackLargeLanguageModel).toBeNull();
      let res = await owner.fetch("PATCH", `/chatbots/${bot.id}/`, { fallback_large_language_model: null });
      expect((await bodyOf<"PATCH /chatbots/{id}/">(res)).fallbackLargeLanguageModel).toBeNull();
      res = await owner.fetch("PATCH", `/chatbots/${bot.id}/`, { fallbackLargeLanguageModel: second.id });
      expect((await bodyOf<"PATCH /chatbots/{id}/">(res)).fallbackLargeLanguageModel?.id).toBe(second.id);
      res = await owner.fetch("PATCH", `/chatbots/${bot.id}/`, { fallbackLargeLanguageModel: "" });
      expect((await bodyOf<"PATCH /chatbots/{id}/">(res)).fallbackLargeLanguageModel).toBeNull();
      // A model in use as a fallback cannot be deleted.
      await owner.fetch("PATCH", `/chatbots/${bot.id}/`, { fallbackLargeLanguageModel: second.id });
      expect((await owner.fetch("DELETE", `/large-language-models/${second.id}/`)).status).toBe(400);
    },
  );

  it(
    "400 naming the field, nothing written: the same model as largeLanguageModel (create, PATCH against the " +
      "stored one), another organization's model, no such model, not a uuid",
    async () => {
      const owner = await seedOwner();
      const other = await seedOwner("other");
      const foreign = await upstreamModel(other);
      const mine = await upstreamModel(owner);
      // A new assistant on the local model with `fallback` for its fallback model.
      const create = (fallback: string) =>
        owner.fetch("POST", "/chatbots/", {
          name: "x",
          largeLanguageModel: LOCAL_LLM,
          fallbackLargeLanguageModel: fallback,
        });
      const same = await expectError(await create(LOCAL_LLM), 400, "invalid");
      expect(same.errors?.fallbackLargeLanguageModel?.[0]).toMatch(/differ from largeLanguageModel/);
      for (const id of [foreign.id, NO_SUCH_ID]) {
        const body = await expectError(await create(id), 400);
        expect(body.errors?.fallbackLargeLanguageModel?.[0]).toMatch(/No large language model with this id/);
      }
      await expectError(await create("not-a-uuid"), 400);
      const list = await bodyOf<"GET /chatbots/">(await owner.fetch("GET", "/chatbots/"));
      expect(list.count).toBe(0);

      const bot = await createChatbot(owner, { largeLanguageModel: mine.id });
      const patched = await expectError(
        await owner.fetch("PATCH", `/chatbots/${bot.id}/`, { fallbackLargeLanguageModel: mine.id }),
        400,
      );
      expect(patched.errors?.fallbackLargeLanguageModel?.[0]).toMatch(/differ/);
      await expectError(
        await owner.fetch("PATCH", `/chatbots/${bot.id}/`, { fallbackLargeLanguageModel: foreign.id }),
        400,
      );
      // Moving the primary onto the fallback is the same mistake.
      await owner.fetch("PATCH", `/chatbots/${bot.id}/`, { fallbackLargeLanguageModel: LOCAL_LLM });
      await expectError(await owner.fetch("PATCH", `/chatbots/${bot.id}/`, { largeLanguageModel: LOCAL_LLM }), 400);
      const stored = await bodyOf<"GET /chatbots/{id}/">(await owner.fetch("GET", `/chatbots/${bot.id}/`));
      expect([stored.largeLanguageModel.id, stored.fallbackLargeLanguageModel?.id]).toEqual([mine.id, LOCAL_LLM]);
    },
  );

  it("401 without a key, 403 for a member without chatbot.manage, 404 for another organization's one", async () => {
    const owner = await seedOwner();
    const second = await upstreamModel(owner);
    const bot = await createChatbot(owner);
    await expectError(
      await call("PATCH", `/api/v1/chatbots/${bot.id}/`, { fallbackLargeLanguageModel: second.id }),
      401,
      "not_authenticated",
    );
    const member = await seedMember(owner, ["chatbot.view"]);
    await expectError(
      await member.fetch("POST", "/chatbots/", {
        name: "m",
        largeLanguageModel: LOCAL_LLM,
        fallbackLargeLanguageModel: second.id,
      }),
      403,
      "permission_denied",
    );
    const other = await seedOwner("other");
    await expectNotFound(await other.fetch("PATCH", `/chatbots/${bot.id}/`, { fallbackLargeLanguageModel: LOCAL_LLM }));
    expect(
      (await bodyOf<"GET /chatbots/{id}/">(await owner.fetch("GET", `/chatbots/${bot.id}/`)))
        .fallbackLargeLanguageModel,
    ).toBeNull();
  });
});
