import { describe, expect, it } from "vitest";
import { PREFIXES, call, expectError, seedMember, seedOwner } from "../../harness";
import { expectDenied, expectNotFound } from "../../support/refusals";
import { seedChatbot } from "../inboxes/fixtures";
import { createKnowledgeBase } from "../../fixtures/knowledge";
import { KINDS, createModel, storedModel } from "./fixtures";

describe("DELETE a model", () => {
  it.each(KINDS.map((k, i) => [k.kind, k, PREFIXES[i % 2]] as const))(
    "%s: an owner deletes an unused model",
    async (_, k, prefix) => {
      const owner = await seedOwner();
      const model = await createModel(owner, k);
      const res = await owner.fetch("DELETE", `${k.path}${model.id}/`, undefined, { prefix });
      expect(res.status).toBe(204);
      expect(await storedModel(model.id)).toBeUndefined();
      await expectNotFound(await owner.fetch("GET", `${k.path}${model.id}/`));
    },
  );

  it.each([
    [KINDS[0], "largeLanguageModelId"],
    [KINDS[1], "embeddingModelId"],
    [KINDS[2], "rerankerModelId"],
  ] as const)("400 while an assistant uses the %s model", async (k, column) => {
    const owner = await seedOwner();
    const model = await createModel(owner, k);
    const bot = await seedChatbot(owner, { [column]: model.id });
    const err = await expectError(await owner.fetch("DELETE", `${k.path}${model.id}/`), 400, "model_in_use");
    expect(err.detail).toContain(bot.name);
    expect(await storedModel(model.id)).toBeDefined();
  });

  it.each([
    ["embedding", KINDS[1], "embeddingModel"],
    ["reranker", KINDS[2], "rerankerModel"],
  ] as const)("400 while a knowledge base uses the %s model, naming it", async (_, k, field) => {
    const owner = await seedOwner();
    const model = await createModel(owner, k, { provider: "local", dimensions: null });
    const kb = await createKnowledgeBase(owner, { [field]: model.id });
    const err = await expectError(await owner.fetch("DELETE", `${k.path}${model.id}/`), 400, "model_in_use");
    expect(err.detail).toContain(`knowledge bases (${kb.name})`);
    expect(await storedModel(model.id)).toBeDefined();
  });

  it("403 for built-in models and for members who are not owners", async () => {
    const owner = await seedOwner();
    const member = await seedMember(owner, ["chatbot.manage"]);
    const model = await createModel(owner, KINDS[1]);
    await expectDenied(await owner.fetch("DELETE", `/embedding-models/${KINDS[1].builtIns[0]}/`));
    await expectDenied(await member.fetch("DELETE", `/embedding-models/${model.id}/`));
    expect(await storedModel(model.id)).toBeDefined();
    expect(await storedModel(KINDS[1].builtIns[0])).toBeDefined();
  });

  it("404 for another organization's model or the wrong kind", async () => {
    const owner = await seedOwner();
    const stranger = await seedOwner();
    const theirs = await createModel(stranger, KINDS[2]);
    await expectNotFound(await owner.fetch("DELETE", `/reranker-models/${theirs.id}/`));
    await expectNotFound(await stranger.fetch("DELETE", `/large-language-models/${theirs.id}/`));
    expect(await storedModel(theirs.id)).toBeDefined();
  });

  it("401 without a key", async () => {
    await expectError(
      await call("DELETE", `/api/v1/reranker-models/${KINDS[2].builtIns[0]}/`),
      401,
      "not_authenticated",
    );
  });
});
