import { describe, expect, it } from "vitest";
import { PREFIXES, call, expectError, seedMember, seedOwner } from "../../harness";
import { expectDenied, expectNotFound } from "../../support/refusals";
import { KINDS, createModel, storedModel } from "./fixtures";
import { createFaq, createKnowledgeBase } from "../../fixtures/knowledge";
import { LOCAL_EMBEDDING } from "../../fixtures/chatbots";

describe("PATCH a model", () => {
  it.each(KINDS.map((k, i) => [k.kind, k, PREFIXES[i % 2]] as const))(
    "%s: an owner renames it and replaces its key",
    async (_, k, prefix) => {
      const owner = await seedOwner();
      const model = await createModel(owner, k);
      const secret = `sk-${crypto.randomUUID()}`;
      const res = await owner.fetch("PATCH", `${k.path}${model.id}/`, { name: "Renamed", api_key: secret }, { prefix });
      const text = await res.text();
      expect(res.status, text).toBe(200);
      expect(text).not.toContain(secret);
      expect(JSON.parse(text)).toMatchObject({
        id: model.id,
        name: "Renamed",
        modelName: model.modelName,
        hasApiKey: true,
      });
      expect((await storedModel(model.id)).apiKeyEncrypted).not.toContain(secret);
    },
  );

  it("apiKey null removes the key; switching to local keeps the rest", async () => {
    const owner = await seedOwner();
    const model = await createModel(owner, KINDS[0], { apiKey: "sk-secret-value" });
    const res = await owner.fetch("PATCH", `/large-language-models/${model.id}/`, { apiKey: null, provider: "local" });
    expect(await res.json()).toMatchObject({
      hasApiKey: false,
      apiKeyPreview: null,
      provider: "local",
      baseUrl: model.baseUrl,
    });
    expect((await storedModel(model.id)).apiKeyEncrypted).toBeNull();
  });

  it("a model pointed at another host does not take its stored, write-only API key there", async () => {
    const owner = await seedOwner();
    const model = await createModel(owner, KINDS[0], { apiKey: "sk-secret-value" });
    const path = `/large-language-models/${model.id}/`;
    // Another path on the same server keeps the key; so does the host moving to https.
    const along = await owner.fetch("PATCH", path, { baseUrl: "https://llm.example.com/v2" });
    expect(await along.json()).toMatchObject({ hasApiKey: true });
    // Another host: the key typed for the first provider would go to whatever host the base URL now names.
    const elsewhere = `https://collector-${crypto.randomUUID()}.example.net/v1`;
    const moved = await owner.fetch("PATCH", path, { baseUrl: elsewhere });
    expect(moved.status, await moved.clone().text()).toBe(200);
    expect(await moved.json()).toMatchObject({ baseUrl: elsewhere, hasApiKey: false, apiKeyPreview: null });
    expect((await storedModel(model.id)).apiKeyEncrypted).toBeNull();
    // A key given with the move is the new host's.
    const given = await owner.fetch("PATCH", path, { baseUrl: "https://llm.example.com/v1", apiKey: "sk-new-value" });
    expect(await given.json()).toMatchObject({ hasApiKey: true });
  });

  it("rules are checked on the result: 400 naming the field, and nothing written", async () => {
    const owner = await seedOwner();
    const model = await createModel(owner, KINDS[1]);
    const path = `/embedding-models/${model.id}/`;
    expect(
      Object.keys((await expectError(await owner.fetch("PATCH", path, { dimensions: null }), 400, "invalid")).errors!),
    ).toEqual(["dimensions"]);
    expect(
      Object.keys(
        (await expectError(await owner.fetch("PATCH", path, { baseUrl: null, name: "new" }), 400, "invalid")).errors!,
      ),
    ).toEqual(["baseUrl"]);
    expect(
      Object.keys((await expectError(await owner.fetch("PATCH", path, { name: "" }), 400, "invalid")).errors!),
    ).toEqual(["name"]);
    expect(await storedModel(model.id)).toMatchObject({ name: model.name, dimensions: 1536, baseUrl: model.baseUrl });
  });

  it("an embedding model cannot change what it computes while a knowledge base holds its vectors", async () => {
    const owner = await seedOwner();
    const model = await createModel(owner, KINDS[1], { provider: "local", dimensions: null });
    const path = `/embedding-models/${model.id}/`;
    const kb = await createKnowledgeBase(owner, { embeddingModel: model.id });
    // Nothing indexed yet: it may change.
    expect((await owner.fetch("PATCH", path, { modelName: "local-embedding-2" })).status).toBe(200);
    await createFaq(owner, kb.id, { question: "What are the opening hours?", answer: "9 to 5." });
    // The knowledge base refuses another embedding model now (vectors of two models cannot be compared)...
    await expectError(
      await owner.fetch("PATCH", `/knowledge-bases/${kb.id}/`, { embeddingModel: LOCAL_EMBEDDING }),
      400,
    );
    // ...and so does the model it points at, field by field; its name and key may still change.
    for (const [field, change] of [
      ["provider", { provider: "openai_compatible", baseUrl: "https://embeddings.example.com/v1", dimensions: 1536 }],
      ["modelName", { modelName: "text-embedding-3-small" }],
      ["dimensions", { dimensions: 256 }],
    ] as const) {
      const err = await expectError(await owner.fetch("PATCH", path, change), 400, "invalid");
      expect(Object.keys(err.errors!)).toEqual([field]);
      expect(err.detail).toContain(kb.name);
    }
    expect((await owner.fetch("PATCH", path, { name: "Renamed", modelName: "local-embedding-2" })).status).toBe(200);
    expect(await storedModel(model.id)).toMatchObject({
      name: "Renamed",
      provider: "local",
      modelName: "local-embedding-2",
      dimensions: null,
    });
  });

  it("403 for built-in models, even for an owner", async () => {
    const owner = await seedOwner();
    const err = await expectDenied(
      await owner.fetch("PATCH", `/reranker-models/${KINDS[2].builtIns[0]}/`, { name: "Mine" }),
    );
    expect(err.detail).toBe("Built-in models cannot be changed.");
  });

  it("403 for a member who is not an owner", async () => {
    const owner = await seedOwner();
    const member = await seedMember(owner, ["inbox.manage"]);
    const model = await createModel(owner, KINDS[0]);
    await expectDenied(await member.fetch("PATCH", `/large-language-models/${model.id}/`, { name: "Mine" }));
    expect((await storedModel(model.id)).name).toBe(model.name);
  });

  it("404 for another organization's model or the wrong kind", async () => {
    const owner = await seedOwner();
    const stranger = await seedOwner();
    const theirs = await createModel(stranger, KINDS[0]);
    const mine = await createModel(owner, KINDS[0]);
    await expectNotFound(await owner.fetch("PATCH", `/large-language-models/${theirs.id}/`, { name: "Mine" }));
    await expectNotFound(await owner.fetch("PATCH", `/reranker-models/${mine.id}/`, { name: "Mine" }));
    expect((await storedModel(theirs.id)).name).toBe(theirs.name);
  });

  it("401 without a key", async () => {
    await expectError(
      await call("PATCH", `/api/large-language-models/${KINDS[0].builtIns[0]}/`, { name: "x" }),
      401,
      "not_authenticated",
    );
  });
});
