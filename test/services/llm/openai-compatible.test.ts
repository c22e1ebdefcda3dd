import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { rejectionOf } from "../../support/errors";
import { complete, ModelError, type ChatEvent, type ChatRequest } from "../../../src/services/llm";
import { openAiCompatibleChatModel, requestBody } from "../../../src/services/llm/openai-compatible";
import type { UpstreamRequest } from "../../support/platforms/recorded";

const KEY = "sk-test-upstream-0123456789";
const baseUrl = () => `${env.TEST_UPSTREAM_URL}/v1`;
const model = (name: string, opts: { apiKey?: string | null; timeoutMs?: number; baseUrl?: string } = {}) =>
  openAiCompatibleChatModel({
    baseUrl: opts.baseUrl ?? baseUrl(),
    apiKey: opts.apiKey === undefined ? KEY : opts.apiKey,
    model: name,
    timeoutMs: opts.timeoutMs,
  });
const ask = (extra: Partial<ChatRequest> = {}): ChatRequest => ({
  messages: [{ role: "user", content: "Say something" }],
  ...extra,
});
const lastRequest = async (name: string) =>
  (await (await fetch(`${env.TEST_UPSTREAM_URL}/last-request?model=${name}`)).json<UpstreamRequest>()).body;
const failure = (p: Promise<unknown>) => rejectionOf(p, ModelError);

describe("openai_compatible chat model", () => {
  it("keeps what it can read of an answer of the wrong shapes, streamed or not", async () => {
    for (const whole of [false, true]) {
      const { content, toolCalls } = await complete(model("malformed"), ask({ whole }));
      expect(content).toBe("still here");
      expect(toolCalls).toEqual([]);
    }
  });

  it("yields each delta as the upstream sends it, then the usage", async () => {
    // 50 ms a word (not the suite's 5 ms): the words arrive over half a second, each read as it comes.
    const name = `stream-${crypto.randomUUID()}-pace-50`;
    const start = Date.now();
    const seen: { event: ChatEvent; at: number }[] = [];
    for await (const event of model(name).stream(ask({ maxTokens: 10 }))) seen.push({ event, at: Date.now() - start });
    const deltas = seen.filter((s) => s.event.type === "delta");
    expect(deltas.map((d) => (d.event.type === "delta" ? d.event.text : "")).join("")).toBe(
      "word1 word2 word3 word4 word5 word6 word7 word8 word9 word10",
    );
    expect(deltas[0].at).toBeLessThan(300);
    expect(deltas[9].at - deltas[0].at).toBeGreaterThan(300);
    expect(seen.at(-1)!.event).toEqual({
      type: "usage",
      usage: { promptTokens: 2, completionTokens: 10, totalTokens: 12 },
    });
  });

  it("sends the passages as numbered sources in the system message, the JSON schema as response_format", async () => {
    const name = `body-${crypto.randomUUID()}`;
    const schema = { type: "object", properties: { answer: { type: "string" } } };
    await complete(model(name), {
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Hours?" },
      ],
      passages: [
        { index: 1, text: "Open 9 to 5.", title: "Hours" },
        { index: 2, text: "Closed Sundays." },
      ],
      jsonSchema: schema,
      temperature: 0,
      maxTokens: 2,
    });
    const body = await lastRequest(name);
    expect(body.messages[0].role).toBe("system");
    expect(body.messages[0].content).toMatch(/^Be brief\.\n\n/);
    expect(body.messages[0].content).toContain("[1] Hours\nOpen 9 to 5.\n\n[2] Closed Sundays.");
    expect(body.messages[1]).toEqual({ role: "user", content: "Hours?" });
    expect(body).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0,
      max_tokens: 2,
    });
    expect(body.response_format).toEqual({
      type: "json_schema",
      json_schema: { name: "output", schema, strict: false },
    });
    expect(requestBody("m", ask())).toEqual({
      model: "m",
      messages: ask().messages,
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it("accumulates streamed tool-call fragments into one tool_call event", async () => {
    const tools = [{ type: "function" as const, function: { name: "get_weather", parameters: { type: "object" } } }];
    const { content, toolCalls } = await complete(model(`tools-${crypto.randomUUID()}`), ask({ tools }));
    expect(content).toBe("");
    expect(toolCalls).toEqual([{ id: "call_1", name: "get_weather", arguments: '{"city": "Paris"}' }]);
  });

  it("an upstream error status is a 502 ModelError naming the status, never the API key", async () => {
    let err = await failure(complete(model("fail-500"), ask()));
    expect(err).toBeInstanceOf(ModelError);
    expect(err.status).toBe(502);
    expect(err.message).toContain("500");
    const secret = `sk-secret-${crypto.randomUUID()}`;
    err = await failure(complete(model("any", { apiKey: secret }), ask()));
    expect(err.status).toBe(502);
    expect(err.message).toContain("401");
    expect(err.message).not.toContain(secret);
  });

  it("network failures, broken and truncated streams are 502 ModelErrors", async () => {
    for (const [name, opts] of [
      ["any", { baseUrl: "http://127.0.0.1:1/v1" }],
      ["fail-midstream", {}],
      ["fail-truncated", {}],
    ] as const) {
      const err = await failure(complete(model(name, opts), ask()));
      expect(err, name).toBeInstanceOf(ModelError);
      expect(err.status, name).toBe(502);
    }
  });

  it("gives up after the overall timeout (504)", async () => {
    const err = await failure(complete(model("delay-1000", { timeoutMs: 300 }), ask()));
    expect(err).toBeInstanceOf(ModelError);
    expect(err.status).toBe(504);
    expect(err.message).toBe("The model provider did not finish within 0.3 s.");
  });

  it("stops quietly when the caller aborts", async () => {
    const abort = new AbortController();
    const texts: string[] = [];
    // 50 ms a word: the answer is still being written when the caller aborts.
    for await (const e of model(`abort-${crypto.randomUUID()}-pace-50`).stream(ask({ signal: abort.signal }))) {
      if (e.type === "delta") texts.push(e.text);
      if (texts.length === 2) abort.abort();
    }
    expect(texts.length).toBeLessThan(5);
  });
});
