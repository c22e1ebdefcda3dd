import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { PREFIXES, call, expectError, seedMember, seedOwner } from "../../harness";
import { expectDenied } from "../../support/refusals";
import { modelApiKey } from "../../../src/services/models";
import { KINDS, storedModel, storedModels, validBody } from "./fixtures";
import { bodyOf } from "../../support/api";

describe("POST models", () => {
  it.each(KINDS.flatMap((k, i) => [[k.kind, k, PREFIXES[i % 2]] as const]))(
    "an owner adds a %s model",
    async (_, k, prefix) => {
      const owner = await seedOwner();
      const secret = `sk-${crypto.randomUUID()}`;
      const res = await owner.fetch("POST", k.path, validBody(k, { apiKey: secret }), { prefix });
      const text = await res.clone().text();
      expect(res.status, text).toBe(201);
      expect(text).not.toContain(secret);
      const body = await bodyOf<`POST ${typeof k.path}`>(res);
      expect(body).toMatchObject({
        kind: k.kind,
        provider: "openai_compatible",
        hasApiKey: true,
        isBuiltIn: false,
        organization: owner.organizationId,
      });
      expect(body.apiKeyPreview).toBe(`…${secret.slice(-4)}`);
      expect(body).not.toHaveProperty("apiKey");
      const row = await storedModel(body.id);
      expect(row.apiKeyEncrypted).toBeTruthy();
      expect(row.apiKeyEncrypted).not.toContain(secret);
      expect(await modelApiKey(row, env)).toBe(secret);
    },
  );

  it("accepts snake_case keys, and a local embedding model needs no dimensions", async () => {
    const owner = await seedOwner();
    const res = await owner.fetch("POST", "/embedding-models/", {
      name: "Local",
      provider: "local",
      model_name: "local-embedding",
    });
    expect(res.status, await res.clone().text()).toBe(201);
    expect(await res.json()).toMatchObject({
      modelName: "local-embedding",
      dimensions: null,
      hasApiKey: false,
      apiKeyPreview: null,
    });
  });

  it.each([
    ["/large-language-models/", { provider: "openai_compatible", modelName: "m", name: "x" }, "baseUrl"],
    ["/large-language-models/", { provider: "local", modelName: "m", name: "x", dimensions: 8 }, "dimensions"],
    ["/embedding-models/", { provider: "workers_ai", modelName: "m", name: "x" }, "dimensions"],
    ["/embedding-models/", { provider: "local", modelName: "m", name: "x", dimensions: 9000 }, "dimensions"],
    [
      "/reranker-models/",
      { provider: "openai_compatible", modelName: "m", name: "x", baseUrl: "ftp://x.example.com" },
      "baseUrl",
    ],
    ["/reranker-models/", { provider: "cloud", modelName: "", name: "" }, "provider"],
  ])("bad input to %s is a 400 naming the field, and writes nothing", async (path, body, field) => {
    const owner = await seedOwner();
    const err = await expectError(await owner.fetch("POST", path, body), 400, "invalid");
    expect(Object.keys(err.errors!)).toContain(field);
    expect(await storedModels(owner.organizationId)).toHaveLength(0);
  });

  it("401 without a key", async () => {
    await expectError(
      await call("POST", "/api/v1/large-language-models/", validBody(KINDS[0])),
      401,
      "not_authenticated",
    );
  });

  it("403 for a member who is not an owner, even with permissions, and nothing is written", async () => {
    const owner = await seedOwner();
    const member = await seedMember(owner, ["chatbot.manage", "inbox.manage"]);
    await expectDenied(await member.fetch("POST", "/large-language-models/", validBody(KINDS[0])));
    expect(await storedModels(owner.organizationId)).toHaveLength(0);
  });
});

describe("openai_compatible base URLs", () => {
  it("accept a local server (Ollama, say) on localhost or an IP, and refuse other schemes", async () => {
    const owner = await seedOwner();
    for (const baseUrl of ["http://localhost:11434/v1", "http://127.0.0.1:8000/v1"]) {
      const res = await owner.fetch("POST", "/large-language-models/", {
        name: baseUrl,
        provider: "openai_compatible",
        modelName: "llama3",
        baseUrl,
      });
      expect(res.status, await res.clone().text()).toBe(201);
    }
    const bad = await owner.fetch("POST", "/large-language-models/", {
      name: "ftp",
      provider: "openai_compatible",
      modelName: "x",
      baseUrl: "ftp://example.com/v1",
    });
    expect(bad.status).toBe(400);
  });
});
