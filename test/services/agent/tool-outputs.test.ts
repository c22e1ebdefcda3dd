import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { models, toolExecutionRecords } from "../../../src/db/schema";
import { jsonBytes, withinBytes, withOutputsWithin } from "../../../src/services/agent/output-size";
import { conversationData, db, seedOwner, type Actor } from "../../harness";
import { createTool, weatherToolBody } from "../../fixtures/tools";
import { answerAt, completionChunk as chunk, forgetAnswers, sse } from "../../support/answer-at";
import { objectMessages } from "../../support/object-messages";
import { agentWith } from "../../support/tool-calls";
import { upstreamModel } from "../../routes/chat-completions/fixtures";

/** Asks an agent on the built-in model, which calls get_weather (an api tool) with the city the question spells. */
async function askWeather(owner: Actor, toolIds: { id: string }[]) {
  const bot = await agentWith(owner, toolIds);
  const res = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
    message: { content: "Use get_weather with city: Paris" },
  });
  expect(res.status, (await res.clone().text()).slice(0, 500)).toBe(200);
  return res.json<{ conversationId: string; message: { id: string } }>();
}

afterEach(forgetAnswers);

describe("tool outputs as stored", () => {
  it("a value past its bytes as JSON is its text cut to fit, marked; one within is kept as it is", () => {
    const quotes = '"'.repeat(1000);
    expect(withinBytes(quotes, 2002)).toBe(quotes);
    const cut = withinBytes(quotes, 1000);
    expect(cut).toMatch(/^"+ \[truncated\]$/);
    expect(jsonBytes(cut)).toBeLessThanOrEqual(1000);
    const object = { text: "é".repeat(1000) };
    expect(jsonBytes(withinBytes(object, 500))).toBeLessThanOrEqual(500);
    // A small output keeps itself whole; the larger ones share what it leaves.
    const calls = withOutputsWithin(
      [{ output: "a".repeat(5000) }, { output: "b" }, { output: "c".repeat(5000) }],
      4000,
    );
    expect(calls[1].output).toBe("b");
    expect(calls.reduce((n, c) => n + jsonBytes(c.output), 0)).toBeLessThanOrEqual(4000);
    expect(jsonBytes(calls[0].output)).toBeGreaterThan(1900);
  });

  it("a tool result whose JSON is past D1's and the object's 2 MB per value is stored only within it", async () => {
    const owner = await seedOwner();
    const api = `https://api-${crypto.randomUUID()}.example.com/weather`;
    // 1,000,000 bytes, under the api tool's 1 MiB read: quotes, each written \" in JSON (2,000,002 bytes).
    answerAt(api, () => new Response('"'.repeat(1_000_000), { headers: { "Content-Type": "text/plain" } }));
    const tool = await createTool(owner, weatherToolBody({ apiUrl: api }));
    const reply = await askWeather(owner, [tool]);
    // On the conversation's part (an organization may have two: the "two-parts" project).
    const [record] = await (await conversationData(owner.organizationId, reply.conversationId))
      .select()
      .from(toolExecutionRecords)
      .where(eq(toolExecutionRecords.messageId, reply.message.id));
    expect(record?.status).toBe("success");
    const [stored] = await objectMessages<{ content_payload: string }>(
      reply.conversationId,
      `id = '${reply.message.id}'`,
    );
    // D1 and a Durable Object's SQLite refuse a value over 2 MB (SQLITE_TOOBIG) in production; local SQLite does not.
    expect(jsonBytes(record.output)).toBeLessThanOrEqual(2_000_000);
    expect(new TextEncoder().encode(stored.content_payload).length).toBeLessThanOrEqual(2_000_000);
    expect(String(record.output)).toMatch(/^"+ \[truncated\]$/);
  });
});

describe("tool arguments", () => {
  it("arguments that are not a JSON object are refused, not sent to the API wrapped as {value}", async () => {
    const owner = await seedOwner();
    const model = await upstreamModel(owner);
    const llm = `https://llm-${crypto.randomUUID()}.example.com/v1`;
    await db().update(models).set({ baseUrl: llm }).where(eq(models.id, model.id));
    let round = 0;
    const call = {
      index: 0,
      id: "call_1",
      type: "function",
      function: { name: "get_weather", arguments: '["Paris", "DROP"]' },
    };
    answerAt(llm, () =>
      sse(
        round++ === 0
          ? `${chunk({ role: "assistant", tool_calls: [call] })}${chunk({}, "tool_calls")}data: [DONE]\n\n`
          : `${chunk({ role: "assistant", content: "Done." })}${chunk({}, "stop")}data: [DONE]\n\n`,
      ),
    );
    const api = `https://api-${crypto.randomUUID()}.example.com/weather`;
    const called = answerAt(api, () => Response.json({ temperature: 21 }));
    const tool = await createTool(
      owner,
      weatherToolBody({
        apiUrl: api,
        rawParametersSchema: { type: "object", properties: { city: { type: "string" } } },
      }),
    );
    const bot = await agentWith(owner, [tool], model);
    const res = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, { message: { content: "Weather?" } });
    expect(res.status, await res.clone().text()).toBe(200);
    const reply = await res.json<{
      message: { contentPayload: { toolCalls: { status: string; error: string | null }[] } };
    }>();
    // The model's arguments are an array, not the object its schema ("type": "object") describes.
    expect(called.map((c) => c.url)).toEqual([]);
    expect(reply.message.contentPayload.toolCalls[0]).toMatchObject({
      status: "failure",
      error: "The arguments are not a JSON object.",
    });
  });
});
