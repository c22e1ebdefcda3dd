import { describe, expect, it } from "vitest";
import { withTextProtocol } from "../../../src/services/agent/text-protocol";
import type { ChatEvent, ChatModel, ChatRequest } from "../../../src/services/llm";
import { fillArguments, localToolCall } from "../../../src/services/llm/local-tools";

/** A model that answers `text` in small pieces and remembers what it was asked. */
function scripted(text: string) {
  const asked: ChatRequest[] = [];
  const model: ChatModel = {
    async *stream(request) {
      asked.push(request);
      for (let i = 0; i < text.length; i += 4) yield { type: "delta" as const, text: text.slice(i, i + 4) };
    },
  };
  return { model, asked };
}

const collect = async (model: ChatModel, request: ChatRequest) => {
  const out: ChatEvent[] = [];
  for await (const e of model.stream(request)) out.push(e);
  return out;
};

const TOOLS: ChatRequest["tools"] = [
  {
    type: "function",
    function: {
      name: "get_weather",
      description: "Weather of a city",
      parameters: { type: "object", properties: { city: { type: "string" } } },
    },
  },
];

describe("ReAct text protocol for models without native tool calls", () => {
  it("turns Action / Action Input lines into a tool call, and describes the tools in the system message", async () => {
    const { model, asked } = scripted('Action: get_weather\nAction Input: {"city": "Oslo"}');
    const events = await collect(withTextProtocol(model), {
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Weather?" },
      ],
      tools: TOOLS,
    });
    expect(events).toEqual([
      { type: "tool_call", id: "call_text_1", name: "get_weather", arguments: '{"city": "Oslo"}' },
    ]);
    expect(asked[0].tools).toBeUndefined();
    expect(asked[0].messages[0].content).toContain("Action: <tool name>");
    expect(asked[0].messages[0].content).toContain("get_weather");
  });

  it("streams a plain answer, and writes earlier calls and results back as text", async () => {
    const { model, asked } = scripted("It is sunny in Oslo.");
    const events = await collect(withTextProtocol(model), {
      messages: [
        { role: "user", content: "Weather?" },
        {
          role: "assistant",
          content: "",
          toolCalls: [{ id: "c1", name: "get_weather", arguments: '{"city":"Oslo"}' }],
        },
        { role: "tool", toolCallId: "c1", name: "get_weather", content: '{"sky":"sunny"}' },
      ],
      tools: TOOLS,
    });
    expect(events.map((e) => (e.type === "delta" ? e.text : "")).join("")).toBe("It is sunny in Oslo.");
    expect(events.length).toBeGreaterThan(1);
    expect(asked[0].messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(asked[0].messages[3].content).toBe('Observation (get_weather): {"sky":"sunny"}');
  });
});

describe("the local model's deterministic tool choice", () => {
  it("picks the tool the question names and fills arguments from it", () => {
    const call = localToolCall({ messages: [{ role: "user", content: "weather in city: Oslo" }], tools: TOOLS });
    expect(call).toMatchObject({ name: "get_weather", arguments: '{"city":"Oslo"}' });
    expect(localToolCall({ messages: [{ role: "user", content: "hello" }], tools: TOOLS })).toBeNull();
    expect(
      localToolCall({
        messages: [{ role: "user", content: "hello" }],
        tools: TOOLS,
        toolChoice: { name: "get_weather" },
      })?.name,
    ).toBe("get_weather");
  });

  it("fills numbers, enums and text", () => {
    const schema = {
      type: "object",
      properties: {
        unit: { type: "string", enum: ["celsius", "fahrenheit"] },
        days: { type: "integer" },
        q: { type: "string" },
      },
    };
    expect(fillArguments(schema, "forecast 3 days in fahrenheit")).toEqual({
      unit: "fahrenheit",
      days: 3,
      q: "forecast 3 days in fahrenheit",
    });
  });

  it("reads JSON arrays and objects the question spells, and numbers into a numeric array", () => {
    const schema = {
      type: "object",
      properties: { prices: { type: "array", items: { type: "number" } }, filter: { type: "object" } },
    };
    expect(
      fillArguments(schema, 'What is the total of prices: [3, 4.5] with filter: {"region": "north, south"}?'),
    ).toEqual({ prices: [3, 4.5], filter: { region: "north, south" } });
    expect(
      fillArguments(
        { type: "object", properties: { prices: { type: "array", items: { type: "number" } } } },
        "add 3 and 4.5 please",
      ),
    ).toEqual({ prices: [3, 4.5] });
  });
});
