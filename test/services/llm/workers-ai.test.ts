import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { chatModelFor, complete, ModelError } from "../../../src/services/llm";
import { localChatModel } from "../../../src/services/llm/local";
import { workersAiChatModel } from "../../../src/services/llm/workers-ai";
import { nativeToolCalling } from "../../../src/services/agent/text-protocol";
import { models } from "../../../src/db/schema";
import { db } from "../../harness";
import { standIn } from "../../support/bindings";

const builtIn = async (id: string) => (await db().select().from(models).where(eq(models.id, id)))[0];

describe("chatModelFor", () => {
  it("picks the local model for a local record", async () => {
    expect(await chatModelFor(env, await builtIn("00000000-0000-7000-8000-000000000001"))).toBe(localChatModel);
  });

  it("refuses Workers AI with a 400 where the AI binding is absent (as in tests and `npm run dev`)", async () => {
    expect(env.AI).toBeUndefined();
    const err = await chatModelFor(env, await builtIn("00000000-0000-7000-8000-000000000011")).catch((e) => e);
    expect(err).toBeInstanceOf(ModelError);
    expect(err).toMatchObject({ status: 400, message: "Workers AI is not configured (no AI binding)" });
  });
});

describe("workers_ai chat model (parsing, with a stand-in binding)", () => {
  it("reads the binding's event stream of {response} deltas and its usage", async () => {
    const calls: unknown[] = [];
    const fake = standIn("AI", {
      run: async (name: string, inputs: unknown) => {
        calls.push({ name, inputs });
        const wire =
          'data: {"response":"Hel"}\n\ndata: {"response":"lo"}\n\ndata: ' +
          '{"response":"","usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}}\n\ndata: ' +
          "[DONE]\n\n";
        return new ReadableStream({
          start(c) {
            c.enqueue(new TextEncoder().encode(wire.slice(0, 20)));
            c.enqueue(new TextEncoder().encode(wire.slice(20)));
            c.close();
          },
        });
      },
    });
    const result = await complete(workersAiChatModel(fake, "@cf/meta/llama"), {
      messages: [{ role: "user", content: "Hi" }],
      passages: [{ index: 1, text: "Greeting." }],
    });
    expect(result).toEqual({
      content: "Hello",
      toolCalls: [],
      usage: { promptTokens: 3, completionTokens: 2, totalTokens: 5 },
    });
    expect(calls[0]).toMatchObject({
      name: "@cf/meta/llama",
      inputs: { stream: true, messages: [{ role: "system" }, { role: "user", content: "Hi" }] },
    });
  });

  it(
    "with tools, runs one non-streamed round: tools in Cloudflare's form, tool turns in OpenAI's, tool_calls " +
      "back as events",
    async () => {
      const calls: { name: string; inputs: Record<string, unknown> }[] = [];
      const fake = standIn("AI", {
        run: async (name: string, inputs: Record<string, unknown>) => {
          calls.push({ name, inputs });
          return calls.length === 1
            ? {
                response: null,
                tool_calls: [{ name: "lookup_order", arguments: { order: "A-17" } }],
                usage: { prompt_tokens: 9, completion_tokens: 4, total_tokens: 13 },
              }
            : { response: "Order A-17 ships today." };
        },
      });
      const model = workersAiChatModel(fake, "@cf/meta/llama-3.3-70b-instruct-fp8-fast");
      const tools = [
        {
          type: "function" as const,
          function: {
            name: "lookup_order",
            description: "Finds an order",
            parameters: { type: "object", properties: { order: { type: "string" } } },
          },
        },
      ];
      const first = await complete(model, { messages: [{ role: "user", content: "Where is A-17?" }], tools });
      expect(first.toolCalls).toEqual([{ id: "call_1", name: "lookup_order", arguments: '{"order":"A-17"}' }]);
      expect(first.content).toBe("");
      expect(first.usage).toEqual({ promptTokens: 9, completionTokens: 4, totalTokens: 13 });
      expect(calls[0].inputs).not.toHaveProperty("stream");
      expect(calls[0].inputs.tools).toEqual([
        { name: "lookup_order", description: "Finds an order", parameters: tools[0].function.parameters },
      ]);
      const second = await complete(model, {
        messages: [
          { role: "user", content: "Where is A-17?" },
          { role: "assistant", content: "", toolCalls: first.toolCalls },
          { role: "tool", toolCallId: "call_1", name: "lookup_order", content: '{"status":"ships today"}' },
        ],
        tools,
      });
      expect(second.content).toBe("Order A-17 ships today.");
      expect(calls[1].inputs.messages).toEqual([
        { role: "user", content: "Where is A-17?" },
        {
          role: "assistant",
          content: "",
          tool_calls: [
            { id: "call_1", type: "function", function: { name: "lookup_order", arguments: '{"order":"A-17"}' } },
          ],
        },
        { role: "tool", tool_call_id: "call_1", name: "lookup_order", content: '{"status":"ships today"}' },
      ]);
    },
  );

  it("only Cloudflare's function-calling models call tools natively; the others use the text protocol", async () => {
    const workersAi = await builtIn("00000000-0000-7000-8000-000000000011");
    const row = (modelName: string) => ({ ...workersAi, provider: "workers_ai" as const, modelName });
    expect(nativeToolCalling(row("@cf/meta/llama-3.3-70b-instruct-fp8-fast"))).toBe(true);
    expect(nativeToolCalling(row("@cf/meta/llama-3.1-8b-instruct"))).toBe(false);
    expect(nativeToolCalling({ ...workersAi, provider: "openai_compatible", modelName: "any" })).toBe(true);
  });

  it("a failing binding is a 502 ModelError", async () => {
    const fake = standIn("AI", {
      run: async () => {
        throw new Error("capacity");
      },
    });
    const err = await complete(workersAiChatModel(fake, "m"), { messages: [{ role: "user", content: "Hi" }] }).catch(
      (e) => e,
    );
    expect(err).toMatchObject({ status: 502 });
    expect(err.message).toContain("capacity");
  });
});
