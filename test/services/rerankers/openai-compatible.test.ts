import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { rejectionOf } from "../../support/errors";
import { lastUpstreamRequest } from "../../routes/chat-completions/fixtures";
import { ModelError } from "../../../src/services/llm/types";
import { openAiCompatibleReranker, toUnitRange } from "../../../src/services/knowledge/rerankers/openai-compatible";
import { workersAiReranker } from "../../../src/services/knowledge/rerankers/workers-ai";

const KEY = "sk-test-upstream-0123456789";
const reranker = (name: string, apiKey: string | null = KEY) =>
  openAiCompatibleReranker({ baseUrl: `${env.TEST_UPSTREAM_URL}/v1`, apiKey, model: name });
const lastRequest = lastUpstreamRequest;
const failure = (p: Promise<unknown>) => rejectionOf(p, ModelError);

describe("openai_compatible reranker (against the local upstream)", () => {
  it("posts {model, query, documents, top_n} to /rerank and maps results back to the documents' order", async () => {
    const name = `rerank-${crypto.randomUUID()}`;
    const documents = ["Shipping is free.", "Our refund policy: 14 days.", "Refund requests go to support."];
    // The upstream answers best first: [1, 2, 0]; the scores must come back in document order.
    expect(await reranker(name).rerank("refund policy", documents)).toEqual([0, 1, 0.5]);
    const last = await lastRequest(name);
    expect(last.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(last.body).toEqual({ model: name, query: "refund policy", documents, top_n: 3 });
  });

  it("asks nothing for no documents", async () => {
    expect(await reranker("never-called").rerank("q", [])).toEqual([]);
  });

  it("an upstream failure is a 502 ModelError that never shows the key", async () => {
    expect(await failure(reranker("fail-500").rerank("q", ["d"]))).toMatchObject({ status: 502 });
    const secret = `sk-secret-${crypto.randomUUID()}`;
    const err = await failure(reranker("any", secret).rerank("q", ["d"]));
    expect(err).toBeInstanceOf(ModelError);
    expect(err.message).toContain("401");
    expect(err.message).not.toContain(secret);
  });

  it("a 200 with an error body is a 502 ModelError with the provider's message", async () => {
    const err = await failure(reranker(`error-200-${crypto.randomUUID()}`).rerank("q", ["d"]));
    expect(err).toMatchObject({
      status: 502,
      message: "The model provider failed: The provider is overloaded, try later.",
    });
  });

  it("maps raw logits into 0..1 without changing their order, and leaves 0..1 scores alone", () => {
    expect(toUnitRange([0.2, 0.9])).toEqual([0.2, 0.9]);
    const mapped = toUnitRange([-3, 0.5, 4]);
    expect(mapped.every((s) => s > 0 && s < 1)).toBe(true);
    expect(mapped[0]).toBeLessThan(mapped[1]);
    expect(mapped[1]).toBeLessThan(mapped[2]);
  });
});

describe("workers_ai reranker", () => {
  it("refuses with a 400 where the AI binding is absent", () => {
    expect(() => workersAiReranker(env.AI, "@cf/baai/bge-reranker-base")).toThrow(
      new ModelError("Workers AI is not configured (no AI binding)", 400),
    );
  });
});
