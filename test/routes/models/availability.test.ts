// Honest model choices (docs/decisions.md): the tests run without the AI binding, as local
// development does, so the built-in Workers AI models are listed as unavailable with the reason,
// and an assistant cannot be saved on one.
import { describe, expect, it } from "vitest";
import { PREFIXES, call, expectError, seedMember, seedOwner } from "../../harness";
import { createChatbot, LOCAL_LLM } from "../../fixtures/chatbots";
import { KINDS, createModel } from "./fixtures";
import { bodyOf } from "../../support/api";

const WORKERS_AI_LLM = "00000000-0000-7000-8000-000000000011";
const WORKERS_AI_EMBEDDING = "00000000-0000-7000-8000-000000000012";
const NO_BINDING = "Workers AI is not available here: the AI binding ([ai] in wrangler.toml) is not configured.";

describe("available and unavailableReason on model records", () => {
  it.each(PREFIXES)(
    "Workers AI models without the binding are listed as unavailable, with the reason (%s)",
    async (prefix) => {
      const owner = await seedOwner();
      const own = await createModel(owner, KINDS[0]);
      const page = await bodyOf<"GET /large-language-models/">(
        await owner.fetch("GET", "/large-language-models/", undefined, { prefix }),
      );
      const byId = Object.fromEntries(page.results.map((m) => [m.id, m]));
      expect(byId[LOCAL_LLM]).toMatchObject({ available: true, unavailableReason: null, unavailableCode: null });
      expect(byId[WORKERS_AI_LLM]).toMatchObject({
        available: false,
        unavailableReason: NO_BINDING,
        unavailableCode: "no_ai_binding",
      });
      expect(byId[own.id]).toMatchObject({ available: true, unavailableReason: null });
      const one = await bodyOf<"GET /embedding-models/{id}/">(
        await owner.fetch("GET", `/embedding-models/${WORKERS_AI_EMBEDDING}/`, undefined, { prefix }),
      );
      expect(one).toMatchObject({ available: false, unavailableReason: NO_BINDING });
    },
  );

  it("a model whose stored API key cannot be read is unavailable, naming ENCRYPTION_KEY", async () => {
    const owner = await seedOwner();
    const model = await createModel(owner, KINDS[0], { apiKey: "sk-secret-123456" });
    expect(model).toMatchObject({ available: true, unavailableReason: null });
    const res = await owner.fetch("GET", `/large-language-models/${model.id}/`, undefined, {
      settings: { ENCRYPTION_KEY: "another-key" },
    });
    expect(await res.json()).toMatchObject({
      available: false,
      unavailableReason: expect.stringContaining("cannot be decrypted"),
      unavailableCode: "key_unreadable",
    });
    const unset = await owner.fetch("GET", `/large-language-models/${model.id}/`, undefined, {
      settings: { ENCRYPTION_KEY: undefined },
    });
    expect(await unset.json()).toMatchObject({
      available: false,
      unavailableReason: "Its API key cannot be read: ENCRYPTION_KEY is not configured.",
      unavailableCode: "no_encryption_key",
    });
  });

  it("any member reads them (no permission needed); 401 without credentials; a foreign model is 404", async () => {
    const owner = await seedOwner();
    await expectError(await call("GET", "/api/v1/large-language-models/"), 401, "not_authenticated");
    const page = await bodyOf<"GET /large-language-models/">(
      await (await seedMember(owner, [])).fetch("GET", "/large-language-models/"),
    );
    expect(page.results.find((m) => m.id === WORKERS_AI_LLM)).toMatchObject({ available: false });
    const theirs = await createModel(await seedOwner(), KINDS[0]);
    await expectError(await owner.fetch("GET", `/large-language-models/${theirs.id}/`), 404, "not_found");
  });
});

describe("saving an assistant on an unavailable model", () => {
  it("create: 400 on the field, naming the model and the reason; nothing is written", async () => {
    const owner = await seedOwner();
    const before = await bodyOf<"GET /chatbots/">(await owner.fetch("GET", "/chatbots/"));
    const res = await owner.fetch("POST", "/chatbots/", { name: "On Workers AI", largeLanguageModel: WORKERS_AI_LLM });
    const body = await expectError(res, 400, "invalid");
    expect(body.detail).toContain(`The model "Workers AI Llama 3.1 8B" is not available: ${NO_BINDING}`);
    expect(body.errors?.largeLanguageModel?.[0]).toContain("not available");
    expect((await bodyOf<"GET /chatbots/">(await owner.fetch("GET", "/chatbots/"))).count).toBe(before.count);
  });

  it(
    "update: switching to one is 400 and changes nothing; a rename alone is not checked again; 403 without " +
      "chatbot.manage",
    async () => {
      const owner = await seedOwner();
      const bot = await createChatbot(owner);
      await expectError(
        await owner.fetch("PATCH", `/chatbots/${bot.id}/`, { largeLanguageModel: WORKERS_AI_LLM }),
        400,
        "invalid",
      );
      await expectError(
        await owner.fetch("PATCH", `/chatbots/${bot.id}/`, { embeddingModel: WORKERS_AI_EMBEDDING }),
        400,
        "invalid",
      );
      const after = await bodyOf<"GET /chatbots/{id}/">(await owner.fetch("GET", `/chatbots/${bot.id}/`));
      expect(after.largeLanguageModel.id).toBe(LOCAL_LLM);
      expect((await owner.fetch("PATCH", `/chatbots/${bot.id}/`, { name: "Renamed" })).status).toBe(200);
      await expectError(
        await (await seedMember(owner, [])).fetch("POST", "/chatbots/", {
          name: "X",
          largeLanguageModel: WORKERS_AI_LLM,
        }),
        403,
        "permission_denied",
      );
    },
  );

  it("another organization's model is still 400 'not available to the organization'", async () => {
    const owner = await seedOwner();
    const theirs = await createModel(await seedOwner(), KINDS[0]);
    const body = await expectError(
      await owner.fetch("POST", "/chatbots/", { name: "X", largeLanguageModel: theirs.id }),
      400,
      "invalid",
    );
    expect(body.detail).toContain("No large language model with this id is available to the organization.");
  });
});
