import { describe, expect, it } from "vitest";
import { complete } from "../../../src/services/llm";
import { extract, instanceOf, localChatModel } from "../../../src/services/llm/local";
import type { ChatEvent, ChatRequest } from "../../../src/services/llm/types";

const passages = [
  { index: 1, text: "Our shop is in Taipei. We sell bicycles and parts." },
  { index: 2, text: "Opening hours are 9 am to 6 pm on weekdays. On Sundays we stay closed." },
];

async function events(request: ChatRequest): Promise<ChatEvent[]> {
  const out: ChatEvent[] = [];
  for await (const e of localChatModel.stream(request)) out.push(e);
  return out;
}

describe("local chat model", () => {
  it("is deterministic and streams word by word, then reports usage", async () => {
    const request: ChatRequest = { messages: [{ role: "user", content: "What are the opening hours?" }], passages };
    const first = await events(request);
    expect(await events(request)).toEqual(first);
    const deltas = first.filter((e) => e.type === "delta");
    expect(deltas.length).toBeGreaterThan(5);
    expect(first.at(-1)).toMatchObject({ type: "usage", usage: { promptTokens: expect.any(Number), completionTokens: expect.any(Number) } });
    const { content, usage, toolCalls } = await complete(localChatModel, request);
    expect(content).toBe(deltas.map((d) => (d.type === "delta" ? d.text : "")).join(""));
    expect(usage!.totalTokens).toBe(usage!.promptTokens + usage!.completionTokens);
    expect(toolCalls).toEqual([]);
  });

  it("extract picks the sentence that answers the question", () => {
    expect(extract("What are the opening hours?", passages)).toBe("Opening hours are 9 am to 6 pm on weekdays.");
    expect(extract("Do you sell bicycles?", passages)).toBe("We sell bicycles and parts.");
    expect(extract("營業時間", [{ index: 1, text: "我們的營業時間是早上九點到晚上六點。週日公休。" }])).toBe("我們的營業時間是早上九點到晚上六點。");
  });

  it("without passages it says so, or echoes when there are no instructions", async () => {
    expect((await complete(localChatModel, { messages: [{ role: "user", content: "Hi" }] })).content).toBe('You said: "Hi".');
    const withSystem = await complete(localChatModel, { messages: [{ role: "system", content: "Be kind." }, { role: "user", content: "Hi" }] });
    expect(withSystem.content).toBe('I have no information in my sources about "Hi".');
  });

  it("instanceOf builds a value valid for the schema, with the answer in the first string", () => {
    const schema = {
      type: "object",
      properties: {
        answer: { type: "string" },
        note: { type: "string" },
        score: { type: "integer", minimum: 1 },
        ok: { type: "boolean" },
        tags: { type: "array", items: { type: "string" }, minItems: 1 },
        level: { enum: ["low", "high"] },
        fixed: { const: 42 },
        nothing: { type: "null" },
        nested: { type: "object", properties: { n: { type: "number" } } },
      },
    };
    expect(instanceOf(schema, "The answer.")).toEqual({
      answer: "The answer.",
      note: "",
      score: 1,
      ok: false,
      tags: [""],
      level: "low",
      fixed: 42,
      nothing: null,
      nested: { n: 0 },
    });
  });

  it("answers JSON for a jsonSchema request and ignores tools", async () => {
    const { content, toolCalls } = await complete(localChatModel, {
      messages: [{ role: "user", content: "What are the opening hours?" }],
      passages,
      jsonSchema: { type: "object", properties: { answer: { type: "string" } } },
      tools: [{ type: "function", function: { name: "get_weather" } }],
    });
    expect(JSON.parse(content)).toEqual({ answer: "Opening hours are 9 am to 6 pm on weekdays." });
    expect(toolCalls).toEqual([]);
  });
});
