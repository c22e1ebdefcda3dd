// The streamed completion's events against the schemas the OpenAPI document names for them
// (CompletionChunk, ToolCallEvent, ToolResultEvent, CompletionStreamError; the stored message with its
// CitationNode items): the console types its try-it panel with these, so they must say what is sent.
import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { seedOwner, type Actor } from "../../harness";
import { agentWith } from "../../support/tool-calls";
import { createChatbot } from "../../fixtures/chatbots";
import { createTool, weatherToolBody } from "../../fixtures/tools";
import { createFaq, createKnowledgeBase, ingest } from "../../fixtures/knowledge";
import { upstreamModel } from "../chat-completions/fixtures";
import { readEvents, storedReply, type StreamEvent } from "../../support/sse";
import { documentOf } from "../../support/api";
import { SchemaKit, type Schema } from "../../support/openapi-sweep/schema";

let kit: SchemaKit;
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
/** The event stream's schema as the completions operation documents it. */
let streamSchema: Schema;

/** Each event's data checked against the schema named for its event, and against the operation's stream schema. */
function expectDocumented(events: StreamEvent[]) {
  const NAMED: Record<string, string> = {
    message: "CompletionChunk",
    tool_call: "ToolCallEvent",
    tool_result: "ToolResultEvent",
    error: "CompletionStreamError",
  };
  for (const { event, data } of events) {
    expect(NAMED[event], `event ${event} has no schema`).toBeDefined();
    expect(kit.valid(ref(NAMED[event]), data), `${event}: ${JSON.stringify(data)}`).toBe(true);
    expect(kit.valid(streamSchema, data)).toBe(true);
  }
}

const stream = async (owner: Actor, botId: string, content: string) => {
  const res = await owner.fetch("POST", `/chatbots/${botId}/completions/`, { message: { content }, isStreaming: true });
  expect(res.status).toBe(200);
  return readEvents<StreamEvent>(res);
};

beforeAll(async () => {
  const doc = await documentOf(await SELF.fetch("https://example.com/api/v1/openapi.json"));
  kit = new SchemaKit(doc.components);
  streamSchema =
    doc.paths["/api/v1/chatbots/{chatbotId}/completions/"].post.responses["200"].content!["text/event-stream"].schema;
});

describe("the streamed completion's events, as the OpenAPI document types them", () => {
  it("text deltas and the stored reply with its citation nodes (a text node and an FAQ)", async () => {
    const owner = await seedOwner();
    const kb = await createKnowledgeBase(owner);
    await ingest(owner, kb.id, [
      { name: "hours.txt", content: "The shop opens at nine in the morning and closes at six." },
    ]);
    await createFaq(owner, kb.id, { question: "When does the shop open?", answer: "At nine in the morning." });
    const bot = await createChatbot(owner, { knowledgeBases: [{ id: kb.id }] });
    const events = await stream(owner, bot.id, "When does the shop open?");
    expectDocumented(events);
    const last = storedReply(events);
    expect(last.done).toBe(true);
    expect(last.message.citationNodes.map((c) => c.node.type).sort()).toEqual(["faq", "text_node"]);
    expect(kit.valid(ref("Message"), last.message)).toBe(true);
    // The schema is not vacuous: a citation without its score is refused.
    const [cited, ...others] = last.message.citationNodes;
    const { score: _, ...unscored } = cited;
    const broken = { ...last.message, citationNodes: [unscored, ...others] };
    expect(kit.valid(ref("Message"), broken)).toBe(false);
  });

  it("tool calls and their results in agent mode, and the reply's contentPayload.toolCalls", async () => {
    const owner = await seedOwner();
    const model = await upstreamModel(owner, { modelName: "parallel-tools" });
    const weather = await createTool(owner, weatherToolBody());
    const length = await createTool(owner, {
      name: "city_length",
      displayName: "city_length",
      description: "Length",
      toolType: "function",
      functionCode: "function main(args) { return { length: args.city.length }; }",
      rawParametersSchema: { type: "object", properties: { city: { type: "string" } } },
    });
    const bot = await agentWith(owner, [weather, length], model);
    const events = await stream(owner, bot.id, "Weather and length?");
    expect(
      events
        .map((e) => e.event)
        .filter((e) => e !== "message")
        .sort(),
    ).toEqual(["tool_call", "tool_call", "tool_result", "tool_result"]);
    expectDocumented(events);
    const { conversationId, messageId, message } = storedReply(events);
    const toolCalls = message.contentPayload?.toolCalls;
    if (!Array.isArray(toolCalls)) return expect.unreachable(`no toolCalls: ${JSON.stringify(message.contentPayload)}`);
    // Each stored call holds ToolResultEvent's fields but the ids.
    for (const call of toolCalls)
      expect(kit.valid(ref("ToolResultEvent"), { conversationId, messageId, ...call }), JSON.stringify(call)).toBe(
        true,
      );
    expect(toolCalls).toHaveLength(2);
  });

  it("an error after the stream started", async () => {
    const owner = await seedOwner();
    const model = await upstreamModel(owner, { modelName: `fail-midstreamx9-${crypto.randomUUID()}` });
    const bot = await createChatbot(owner, { largeLanguageModel: model.id });
    const events = await stream(owner, bot.id, "break");
    expect(events.at(-1)!.event).toBe("error");
    expectDocumented(events);
  });
});
