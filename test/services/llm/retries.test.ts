import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { rejectionOf } from "../../support/errors";
import { complete, ModelError, type ChatRequest } from "../../../src/services/llm";
import { openAiCompatibleChatModel, retryAfterMs } from "../../../src/services/llm/openai-compatible";
import { retryPolicy, withRetries, type RetryPolicy } from "../../../src/services/llm/retries";
import { settingProblems } from "../../../src/services/settings";
import { bindingsWith } from "../../harness";
import { upstreamRequestCount } from "../../routes/chat-completions/fixtures";

// The real upstream (test/support/openai-upstream.mjs) with its fault modes; only the waits are
// taken by an injected sleep, which notes how long each would have been.
const KEY = "sk-test-upstream-0123456789";
const POLICY: RetryPolicy = { retries: 2, baseDelayMs: 500, maxDelayMs: 10_000 };
const ask = (extra: Partial<ChatRequest> = {}): ChatRequest => ({
  messages: [{ role: "user", content: "Say something" }],
  maxTokens: 3,
  ...extra,
});
const failure = (p: Promise<unknown>) => rejectionOf(p, ModelError);

function retrying(name: string, policy = POLICY, timeoutMs?: number) {
  const waits: number[] = [];
  const model = withRetries(
    openAiCompatibleChatModel({ baseUrl: `${env.TEST_UPSTREAM_URL}/v1`, apiKey: KEY, model: name, timeoutMs }),
    policy,
    async (ms) => {
      waits.push(ms);
    },
  );
  return { model, waits };
}

describe("model requests retried before the first token", () => {
  it("a 429 is asked again after its Retry-After, and the answer that follows is whole", async () => {
    const name = `fail-429x2-${crypto.randomUUID()}`;
    const { model, waits } = retrying(name);
    expect((await complete(model, ask())).content).toBe("word1 word2 word3");
    expect(waits).toEqual([1000, 1000]); // Retry-After: 1
    expect(await upstreamRequestCount(name)).toBe(3);
  });

  it("caps the wait whatever Retry-After asks, and gives up after the configured retries", async () => {
    const name = `fail-429-${crypto.randomUUID()}`;
    const { model, waits } = retrying(name, { ...POLICY, retries: 3, maxDelayMs: 250 });
    const err = await failure(complete(model, ask()));
    expect(err).toBeInstanceOf(ModelError);
    expect(err.status).toBe(502);
    expect(err.message).toContain("429");
    expect(waits).toEqual([250, 250, 250]);
    expect(await upstreamRequestCount(name)).toBe(4);
  });

  it("a lost connection backs off, doubling each time; streamed and whole answers alike", async () => {
    for (const whole of [false, true]) {
      const name = `fail-connectx2-${crypto.randomUUID()}`;
      const { model, waits } = retrying(name);
      expect((await complete(model, ask({ whole }))).content, `whole: ${whole}`).toBe("word1 word2 word3");
      expect(waits).toEqual([500, 1000]);
      expect(await upstreamRequestCount(name)).toBe(3);
    }
  });

  it("a 500, a time-out and a stream broken after its first tokens are not asked again", async () => {
    for (const [name, status] of [
      [`fail-500-${crypto.randomUUID()}`, 502],
      [`hang-${crypto.randomUUID()}`, 504],
      [`fail-midstream-${crypto.randomUUID()}`, 502],
    ] as const) {
      const { model, waits } = retrying(name, POLICY, status === 504 ? 300 : undefined);
      const seen: string[] = [];
      const err = await failure(
        (async () => {
          for await (const e of model.stream(ask({ maxTokens: 20 }))) if (e.type === "delta") seen.push(e.text);
        })(),
      );
      expect(err.status, name).toBe(status);
      expect(waits, name).toEqual([]);
      expect(await upstreamRequestCount(name), name).toBe(1);
      // The broken stream's first words went out once: a retry would have sent them again.
      if (name.startsWith("fail-midstream")) expect(seen).toEqual(["word1", " word2", " word3"]);
    }
  });

  it("stops quietly when the caller leaves during a wait", async () => {
    const abort = new AbortController();
    const name = `fail-429-${crypto.randomUUID()}`;
    const model = withRetries(
      openAiCompatibleChatModel({ baseUrl: `${env.TEST_UPSTREAM_URL}/v1`, apiKey: KEY, model: name }),
      POLICY,
      async () => abort.abort(),
    );
    expect(await complete(model, ask({ signal: abort.signal }))).toMatchObject({ content: "" });
    expect(await upstreamRequestCount(name)).toBe(1);
  });

  it("reads Retry-After in seconds, as a date, and OpenAI's retry-after-ms", () => {
    const now = Date.parse("2026-05-01T10:00:00Z");
    expect(retryAfterMs(new Headers({ "Retry-After": "2" }), now)).toBe(2000);
    expect(retryAfterMs(new Headers({ "Retry-After": "Fri, 01 May 2026 10:00:03 GMT" }), now)).toBe(3000);
    expect(retryAfterMs(new Headers({ "Retry-After": "2", "retry-after-ms": "150" }), now)).toBe(150);
    expect(retryAfterMs(new Headers({ "Retry-After": "soon" }), now)).toBeNull();
    expect(retryAfterMs(new Headers(), now)).toBeNull();
  });

  it("takes its limits from the settings; a malformed one keeps the default and is reported", () => {
    const settings = (vars: Record<string, string>) =>
      bindingsWith({
        MODEL_RETRIES: undefined,
        MODEL_RETRY_MAX_DELAY_MS: undefined,
        MODEL_TIMEOUT_MS: undefined,
        ...vars,
      });
    expect(retryPolicy(settings({}))).toEqual({ retries: 2, baseDelayMs: 500, maxDelayMs: 10_000 });
    expect(retryPolicy(settings({ MODEL_RETRIES: "0", MODEL_RETRY_MAX_DELAY_MS: "3000" }))).toMatchObject({
      retries: 0,
      maxDelayMs: 3000,
    });
    expect(retryPolicy(settings({ MODEL_RETRIES: "many" })).retries).toBe(2);
    const problems = settingProblems(settings({ MODEL_RETRIES: "many", MODEL_TIMEOUT_MS: "-1" })).map((p) => p.name);
    expect(problems).toEqual(expect.arrayContaining(["MODEL_RETRIES", "MODEL_TIMEOUT_MS"]));
    expect(problems).not.toContain("MODEL_RETRY_MAX_DELAY_MS");
  });
});
