import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { models } from "../../../src/db/schema";
import { db, unique } from "../../harness";
import { answerAt, completionChunk as chunk, forgetAnswers, sse } from "../../support/answer-at";
import {
  PATH,
  QUESTION,
  chunks,
  contentOf,
  gatewayOwner,
  lastUpstreamRequest,
  readEvents,
  upstreamModel,
  wordsUsed,
} from "./fixtures";

describe("POST /chat/completions (streaming)", () => {
  it("passes an upstream answer through token by token, as it is produced", async () => {
    const owner = await gatewayOwner();
    // 20 tokens, 50 ms apart (`-pace-50`, not the suite's 5 ms): about a second for the whole answer.
    const model = await upstreamModel(owner, { modelName: `${unique("echo")}-pace-50` });
    const start = Date.now();
    const res = await owner.fetch("POST", PATH, { model: model.id, messages: QUESTION, stream: true, max_tokens: 20 });
    expect(res.status).toBe(200);
    const events = await readEvents(res, start);
    const content = events.filter(
      (e) => e.event === null && e.data !== "[DONE]" && JSON.parse(e.data).choices[0]?.delta?.content,
    );
    expect(content).toHaveLength(20);
    expect(contentOf(events)).toBe(Array.from({ length: 20 }, (_, i) => `word${i + 1}`).join(" "));
    const first = content[0].at;
    const last = content[19].at;
    expect(first).toBeLessThan(500);
    expect(last - first).toBeGreaterThan(600);
    // Spread over many reads, not delivered in one piece at the end.
    expect(new Set(content.map((e) => e.read)).size).toBeGreaterThan(10);
    await vi.waitFor(async () => expect(await wordsUsed(owner.organizationId)).toBe(20));
  });

  it("streams OpenAI chunks: role first, a stop chunk, the usage chunk when asked, then [DONE]", async () => {
    const owner = await gatewayOwner();
    const res = await owner.fetch("POST", PATH, {
      model: "Local LLM",
      messages: QUESTION,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toContain("text/event-stream");
    expect(res.headers.get("Cache-Control")).toBe("no-cache");
    expect(res.headers.get("X-Accel-Buffering")).toBe("no");
    expect(res.headers.get("X-Request-Id")).toBeTruthy();
    const events = await readEvents(res);
    expect(events.at(-1)!.data).toBe("[DONE]");
    const all = chunks(events);
    const ids = new Set(all.map((c) => c.id));
    expect(ids.size).toBe(1);
    expect([...ids][0]).toMatch(/^chatcmpl-/);
    for (const c of all) expect(c).toMatchObject({ object: "chat.completion.chunk", model: "Local LLM" });
    expect(all[0].choices[0]).toMatchObject({ index: 0, delta: { role: "assistant" }, finish_reason: null });
    expect(all[1].choices[0].delta.role).toBeUndefined();
    expect(contentOf(events)).toBe('You said: "What are your opening hours?".');
    const usage = all.at(-1);
    expect(usage.choices).toEqual([]);
    expect(usage.usage.completion_tokens).toBeGreaterThan(0);
    expect(all.at(-2).choices[0]).toEqual({ index: 0, delta: {}, finish_reason: "stop" });
  });

  it("without include_usage there is no usage chunk", async () => {
    const owner = await gatewayOwner();
    const res = await owner.fetch("POST", PATH, { model: "Local LLM", messages: QUESTION, stream: true });
    const all = chunks(await readEvents(res));
    expect(all.every((c) => c.usage === undefined)).toBe(true);
    expect(all.at(-1).choices[0].finish_reason).toBe("stop");
  });

  it("streams a tool call with its arguments joined from the upstream's fragments", async () => {
    const owner = await gatewayOwner();
    const model = await upstreamModel(owner);
    const tools = [
      {
        type: "function",
        function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } },
      },
    ];
    const res = await owner.fetch("POST", PATH, { model: model.id, messages: QUESTION, tools, stream: true });
    const all = chunks(await readEvents(res));
    const calls = all.flatMap((c) => c.choices[0]?.delta?.tool_calls ?? []);
    expect(calls).toEqual([
      { index: 0, id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city": "Paris"}' } },
    ]);
    expect(all.at(-1).choices[0].finish_reason).toBe("tool_calls");
  });

  it("a client that goes away mid-answer stops the upstream request", async () => {
    const owner = await gatewayOwner();
    // 50 ms a word: the answer is still being written when the client leaves after its second word.
    const model = await upstreamModel(owner, { modelName: `${unique("echo")}-pace-50` });
    const res = await owner.fetch("POST", PATH, { model: model.id, messages: QUESTION, stream: true, max_tokens: 20 });
    const reader = res.body!.getReader();
    let text = "";
    while (!text.includes("word2")) text += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    await vi.waitFor(async () => expect((await lastUpstreamRequest(model.modelName)).aborted).toBe(true), {
      timeout: 3000,
    });
  });

  describe("an answer the provider cut", () => {
    afterEach(forgetAnswers);

    it("says finish_reason length when the provider stopped at max_tokens, streamed and not", async () => {
      const owner = await gatewayOwner();
      const model = await upstreamModel(owner);
      const base = `https://cut-${crypto.randomUUID()}.example.com/v1`;
      await db().update(models).set({ baseUrl: base }).where(eq(models.id, model.id));
      answerAt(base, () =>
        sse(`${chunk({ role: "assistant", content: "We are open from" })}${chunk({}, "length")}data: [DONE]\n\n`),
      );
      const whole = await owner.fetch("POST", PATH, { model: model.id, messages: QUESTION, max_tokens: 4 });
      expect(whole.status).toBe(200);
      const answer = await whole.json<{ choices: { finish_reason: string }[] }>();
      const streamed = await owner.fetch("POST", PATH, {
        model: model.id,
        messages: QUESTION,
        max_tokens: 4,
        stream: true,
      });
      const last = chunks(await readEvents(streamed)).at(-1);
      // An OpenAI client reads "stop" as a complete answer; the provider said the answer was cut.
      expect([answer.choices[0].finish_reason, last.choices[0].finish_reason]).toEqual(["length", "length"]);
    });
  });
});
