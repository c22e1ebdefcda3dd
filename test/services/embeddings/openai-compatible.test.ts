import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { rejectionOf } from "../../support/errors";
import { lastUpstreamRequest } from "../../routes/chat-completions/fixtures";
import type { EmbeddingsBody } from "../../support/platforms/recorded";
import { ModelError } from "../../../src/services/llm/types";
import {
  EMBEDDING_BATCH_SIZE,
  openAiCompatibleEmbeddingModel,
} from "../../../src/services/knowledge/embeddings/openai-compatible";
import { workersAiEmbeddingModel } from "../../../src/services/knowledge/embeddings/workers-ai";

const KEY = "sk-test-upstream-0123456789";
const model = (name: string, opts: { apiKey?: string | null; dimensions?: number } = {}) =>
  openAiCompatibleEmbeddingModel({
    baseUrl: `${env.TEST_UPSTREAM_URL}/v1/`,
    apiKey: opts.apiKey === undefined ? KEY : opts.apiKey,
    model: name,
    dimensions: opts.dimensions ?? 8,
  });
const requestsOf = lastUpstreamRequest<EmbeddingsBody>;
const failure = (p: Promise<unknown>) => rejectionOf(p, ModelError);

describe("openai_compatible embedding model (against the local upstream)", () => {
  it("posts {model, input} to /embeddings with the key and returns unit vectors in input order", async () => {
    const name = `embed-${crypto.randomUUID()}`;
    const texts = ["refund policy", "退货政策", "refund policy"];
    const vectors = await model(name).embed(texts, "query");
    expect(vectors).toHaveLength(3);
    for (const v of vectors) {
      expect(v).toHaveLength(8);
      expect(Math.hypot(...v)).toBeCloseTo(1, 9);
    }
    expect(vectors[2]).toEqual(vectors[0]);
    expect(vectors[1]).not.toEqual(vectors[0]);
    const last = await requestsOf(name);
    expect(last.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(last.body).toEqual({ model: name, input: texts });
  });

  it("splits large inputs into batches of 96 and keeps the order across them", async () => {
    const name = `batch-${crypto.randomUUID()}`;
    const texts = Array.from({ length: EMBEDDING_BATCH_SIZE * 2 + 5 }, (_, i) => `text number ${i}`);
    const all = await model(name).embed(texts);
    expect(all).toHaveLength(texts.length);
    expect((await requestsOf(name)).body.input).toEqual(texts.slice(EMBEDDING_BATCH_SIZE * 2));
    // Each vector is the one the text gets alone.
    expect(all[100]).toEqual((await model(name).embed([texts[100]]))[0]);
  });

  it("sends no Authorization header without a key (the upstream then answers 401: a 502 ModelError)", async () => {
    const name = `nokey-${crypto.randomUUID()}`;
    const err = await failure(model(name, { apiKey: null }).embed(["x"]));
    expect((await requestsOf(name)).headers.authorization).toBeNull();
    expect(err).toBeInstanceOf(ModelError);
    expect(err).toMatchObject({ status: 502 });
    expect(err.message).toContain("401");
  });

  it("an upstream failure is a 502 ModelError that never shows the key", async () => {
    const err = await failure(model("fail-500").embed(["x"]));
    expect(err).toMatchObject({ status: 502 });
    expect(err.message).toContain("The upstream fell over.");
    const secret = `sk-secret-${crypto.randomUUID()}`;
    const leaked = await failure(model("any", { apiKey: secret }).embed(["x"]));
    expect(leaked.message).not.toContain(secret);
    // A long key (a JWT, 320 characters) is hidden before the message is cut, which would leave most of it unmatched.
    const long = `eyJhbGciOiJIUzI1NiJ9.${"a1B2c3D4".repeat(37)}.sig`.slice(0, 320);
    const cut = await failure(model("any", { apiKey: long }).embed(["x"]));
    expect(cut.message).toContain("***");
    expect(cut.message).not.toContain(long.slice(0, 40));
  });

  it("a 200 with an error body is a 502 ModelError with the provider's message, not 'no vectors'", async () => {
    const err = await failure(model(`error-200-${crypto.randomUUID()}`).embed(["x"]));
    expect(err).toMatchObject({
      status: 502,
      message: "The model provider failed: The provider is overloaded, try later.",
    });
  });

  it("an answer of the wrong shape is a 502 ModelError, not a crash", async () => {
    const err = await failure(model("malformed").embed(["x"]));
    expect(err).toMatchObject({ status: 502, message: "The embedding provider returned a malformed vector." });
  });

  it("vectors of another length than the record says are a 400 ModelError (the record is wrong)", async () => {
    const err = await failure(model(`dims-${crypto.randomUUID()}`, { dimensions: 1024 }).embed(["x"]));
    expect(err).toMatchObject({
      status: 400,
      message: "The embedding model returned 8 dimensions; its record says 1024.",
    });
  });

  it("an unreachable provider is a 502 ModelError", async () => {
    const unreachable = openAiCompatibleEmbeddingModel({
      baseUrl: "http://127.0.0.1:9/v1",
      apiKey: null,
      model: "m",
      dimensions: 8,
    });
    expect(await failure(unreachable.embed(["x"]))).toMatchObject({ status: 502 });
  });
});

describe("workers_ai embedding model", () => {
  it("refuses with a 400 where the AI binding is absent (as in tests and `npm run dev`)", () => {
    expect(env.AI).toBeUndefined();
    expect(() => workersAiEmbeddingModel(env.AI, "@cf/baai/bge-m3", 1024)).toThrow(
      new ModelError("Workers AI is not configured (no AI binding)", 400),
    );
  });
});
