import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { bindingsWith, conversationData, db, fromEveryPart, seedOwner, type Actor } from "../../harness";
import { chatbots, conversations, models } from "../../../src/db/schema";
import { storedMessages } from "../../../src/services/messages";
import { env } from "cloudflare:workers";
import { agentReply } from "../../../src/services/agent/reply";
import { WITH_AI_BINDING, createChatbot } from "../../fixtures/chatbots";
import { createTool, weatherToolBody } from "../../fixtures/tools";
import {
  PRE_TOKEN_FAULTS,
  assistantWithFallback,
  lastUpstreamRequest,
  storedModelOf,
  upstreamModel,
  WORKERS_AI_LLM_ID,
  upstreamRequestCount,
} from "../chat-completions/fixtures";
import { chunksOf, readEvents, storedReply, type StreamEvent, streamedText } from "../../support/sse";
import { workersAiStandIn } from "../../support/workers-ai-stand-in";
import { bodyOf, refinedBodyOf } from "../../support/api";

// The fallback model in the agent and workflow reply modes, with the rules of the default mode
// (fallback-model.test.ts): a primary failing before its first token, past its retries, is replaced
// by the fallback, which then answers the rest of the reply (its tool rounds, its workflow steps);
// a stream broken after its first words is not. The upstream (test/support/openai-upstream.mjs)
// fails every request for `<fault>x99-<id>`, those from the N-th on for `<fault>from<N>-<id>`, and
// answers a request carrying tools with a call of one (`get_weather` here, against the receiver).
const ROUTE = "00000000-0000-7000-8000-00000000f002";
const REWRITE = "00000000-0000-7000-8000-00000000f001";
const ANSWER = Array.from({ length: 20 }, (_, i) => `word${i + 1}`).join(" ");

type ToolCall = { id: string; name: string; status: string; input: Record<string, unknown> };
type Message = {
  id: string;
  sequence: number;
  content: string;
  contentPayload: {
    toolCalls?: ToolCall[];
    steps?: { name: string; status: string; output: Record<string, unknown> }[];
  };
};
type Completion = { conversationId: string; content: string; message: Message };

const messagesOf = async (owner: Actor, conversationId: string) =>
  (
    await bodyOf<"GET /messages/">(await owner.fetch("GET", `/messages/?conversation=${conversationId}&pageSize=100`))
  ).results.sort((a, b) => a.sequence - b.sequence);

/** An assistant in `mode` whose model is `primaryName` on the upstream, with a working fallback and the weather tool.
 * */
async function assistant(owner: Actor, primaryName: string, mode: Record<string, unknown>) {
  const tool = await createTool(owner, weatherToolBody());
  const made = await assistantWithFallback(owner, primaryName, { tools: [{ id: tool.id }], ...mode });
  const completion = (body: Record<string, unknown>) =>
    owner.fetch("POST", `/chatbots/${made.bot.id}/completions/`, body);
  return { ...made, completion };
}

async function usageByModel(owner: Actor, botId: string) {
  const today = new Date().toISOString().slice(0, 10);
  const usage = await bodyOf<"GET /chatbots/{chatbotPk}/llm-usage-statistics/">(
    await owner.fetch(
      "GET",
      `/chatbots/${botId}/llm-usage-statistics/?startDate=${today}&endDate=${today}&timeGranularity=day`,
    ),
  );
  return usage.total.models.map((m) => [m.model.id, m.requestsCount]);
}

const failedReplies = async (owner: Actor, botId: string) =>
  (await bodyOf<"GET /chatbots/{chatbotPk}/statistics/">(await owner.fetch("GET", `/chatbots/${botId}/statistics/`)))
    .total.failedRepliesCount;

describe.each(PRE_TOKEN_FAULTS)("agent mode, a primary model that answers $fault", ({ fault, attempts }) => {
  it(
    "is replaced by the fallback, which calls the tool and answers; the stream, the stored reply and the " +
      "statistics name the fallback",
    async () => {
      const owner = await seedOwner();
      const primaryName = `${fault}x99-${crypto.randomUUID()}`;
      const { bot, fallback, fallbackName, completion } = await assistant(owner, primaryName, { replyMode: "agent" });

      const streamed = await completion({
        message: { content: "What is the weather? use get_weather" },
        isStreaming: true,
      });
      expect(streamed.status).toBe(200);
      const events = await readEvents<StreamEvent>(streamed);
      expect(events.map((e) => e.event).filter((e, i, all) => e !== all[i - 1])).toEqual([
        "tool_call",
        "tool_result",
        "message",
      ]);
      expect(events.find((e) => e.event === "tool_result")!.data).toMatchObject({
        name: "get_weather",
        status: "success",
        input: { city: "Paris" },
      });
      const done = storedReply(events);
      expect(done.done).toBe(true);
      expect(done.message.content).toMatch(/^Result: \{"method":"GET"/);
      expect(streamedText(events)).toBe(done.message.content);
      expect(done.message.contentPayload).toMatchObject({ toolCalls: [{ name: "get_weather", status: "success" }] });

      // The conversation goes on, directly: the fallback again, from the first round.
      const again = await completion({
        conversation: done.conversationId,
        message: { content: "And now? use get_weather" },
      });
      expect(again.status, await again.clone().text()).toBe(200);
      const second = await refinedBodyOf<"POST /chatbots/{chatbotId}/completions/", Completion>(again);
      expect(second.content).toMatch(/^Result: \{"method":"GET"/);

      const stored = await messagesOf(owner, done.conversationId);
      expect(stored.map((m) => `${m.sequence}:${m.type}`)).toEqual([
        "1:incoming",
        "2:outgoing",
        "3:incoming",
        "4:outgoing",
      ]);
      expect(stored[1]).toMatchObject({
        id: done.message.id,
        content: done.message.content,
        contentPayload: { toolCalls: [{ name: "get_weather", status: "success" }] },
      });
      for (const r of [done, second]) expect(await storedModelOf(r)).toBe(fallback.id);
      // Once it has answered, the fallback keeps the reply: the primary is asked (with its retries) once per reply.
      expect(await upstreamRequestCount(primaryName)).toBe(2 * attempts);
      expect(await upstreamRequestCount(fallbackName)).toBe(4);
      // The fallback heard the tool round it asked for, as tool messages.
      expect(
        (await lastUpstreamRequest(fallbackName)).body.messages.slice(-2).map((m: { role: string }) => m.role),
      ).toEqual(["assistant", "tool"]);

      expect(await usageByModel(owner, bot.id)).toEqual([[fallback.id, 2]]);
      expect(await failedReplies(owner, bot.id)).toBe(0);
    },
  );
});

describe("agent mode and the fallback", () => {
  it("takes over between rounds: the primary's tool call stands, the fallback answers from its result", async () => {
    const owner = await seedOwner();
    const primaryName = `fail-500from2-${crypto.randomUUID()}`;
    const { fallback, fallbackName, completion } = await assistant(owner, primaryName, { replyMode: "agent" });
    const res = await completion({ message: { content: "What is the weather? use get_weather" } });
    expect(res.status, await res.clone().text()).toBe(200);
    const reply = await refinedBodyOf<"POST /chatbots/{chatbotId}/completions/", Completion>(res);
    expect(reply.message.contentPayload.toolCalls).toMatchObject([{ name: "get_weather", status: "success" }]);
    expect(reply.content).toMatch(/^Result: \{"method":"GET"/);
    expect(await upstreamRequestCount(primaryName)).toBe(2);
    expect(await upstreamRequestCount(fallbackName)).toBe(1);
    const asked = (await lastUpstreamRequest(fallbackName)).body.messages;
    expect(asked.at(-2)!.tool_calls![0]).toMatchObject({ id: "call_1", function: { name: "get_weather" } });
    expect(asked.at(-1)).toMatchObject({ role: "tool", tool_call_id: "call_1" });
    expect(await storedModelOf(reply)).toBe(fallback.id);
  });

  it("speaks to a fallback without tool calling in the text protocol, as it would as the own model", async () => {
    const owner = await seedOwner();
    const primary = await upstreamModel(owner, { modelName: `fail-500x99-${crypto.randomUUID()}` });
    const tool = await createTool(owner, weatherToolBody());
    // The seeded Workers AI model (Llama 3.1 8B) has no function calling.
    // Saved where the binding exists (an assistant cannot be saved on a model that cannot answer)...
    const bot = await createChatbot(
      owner,
      {
        largeLanguageModel: primary.id,
        fallbackLargeLanguageModel: WORKERS_AI_LLM_ID,
        replyMode: "agent",
        tools: [{ id: tool.id }],
      },
      WITH_AI_BINDING,
    );
    // ...then asked through the API, whose conversation object has no AI binding (a deployment that
    // lost it): the fallback fails too, and the client hears the fallback's failure.
    const res = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
      message: { content: "What is the weather?" },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: "model_unavailable",
      detail: expect.stringContaining("AI binding"),
    });
    // The same reply to the stored message, with a stand-in for the binding (test/support/workers-ai-stand-in.ts).
    // In the conversation's part, wherever its id puts it (docs/decisions.md, "One organization over several parts").
    const [conversation] = await fromEveryPart(owner.organizationId, (part) =>
      part.select().from(conversations).where(eq(conversations.organizationId, owner.organizationId)),
    );
    const part = await conversationData(owner.organizationId, conversation.id);
    const incoming = (await storedMessages(env, owner.organizationId, conversation.id).lookup([{ latest: {} }]))[0]!;
    const [chatbot] = await db().select().from(chatbots).where(eq(chatbots.id, bot.id));
    const [model] = await db().select().from(models).where(eq(models.id, primary.id));
    const ai = workersAiStandIn();
    let streamed = "";
    const reply = await agentReply(
      bindingsWith({ AI: ai }),
      db(),
      { chatbot, model, knowledgeBases: [], history: [], incoming, data: part },
      (text) => (streamed += text),
    );
    expect(reply).toMatchObject({ content: "Hello from Workers AI.", modelId: WORKERS_AI_LLM_ID });
    expect(streamed).toBe(reply.content);
    const [call] = ai.calls;
    expect(call.inputs.tools).toBeUndefined();
    expect(call.inputs.messages![0].content).toMatch(/You can use these tools:\n- get_weather/);
  });

  it(
    "does not take over a stream broken after its first words: the error event ends it, the visitor's message " +
      "stays, no reply is stored",
    async () => {
      const owner = await seedOwner();
      // The upstream's tool round streams whole; the answer after it breaks after three words.
      const primaryName = `fail-midstream-${crypto.randomUUID()}`;
      const { bot, fallbackName, completion } = await assistant(owner, primaryName, { replyMode: "agent" });
      const res = await completion({ message: { content: "What is the weather? use get_weather" }, isStreaming: true });
      const events = await readEvents<StreamEvent>(res);
      expect(events.map((e) => e.event).filter((e, i, all) => e !== all[i - 1])).toEqual([
        "tool_call",
        "tool_result",
        "message",
        "error",
      ]);
      expect(streamedText(events)).toMatch(/^Result: \{"method":"GET"/);
      expect(chunksOf(events).some((c) => c.done === true)).toBe(false);
      expect(events.at(-1)!.data).toMatchObject({ code: "upstream_error" });
      expect(await upstreamRequestCount(primaryName)).toBe(2);
      expect(await upstreamRequestCount(fallbackName)).toBe(0);
      const conversationId = events.at(-1)!.data.conversationId as string;
      expect((await messagesOf(owner, conversationId)).map((m) => `${m.sequence}:${m.type}`)).toEqual(["1:incoming"]);
      await expect.poll(() => failedReplies(owner, bot.id)).toBe(1);
    },
  );
});

describe("workflow mode and the fallback", () => {
  it("intent routing: the fallback classifies, calls the tool and answers, streamed and stored", async () => {
    const owner = await seedOwner();
    const primaryName = `fail-429x99-${crypto.randomUUID()}`;
    const { bot, fallback, fallbackName, completion } = await assistant(owner, primaryName, {
      replyMode: "workflow",
      builtInWorkflow: ROUTE,
    });
    const res = await completion({ message: { content: "What is the weather? use get_weather" }, isStreaming: true });
    const events = await readEvents<StreamEvent>(res);
    const done = storedReply(events);
    expect(done).toMatchObject({ done: true });
    expect(done.message.content).toMatch(/^Result: \{"method":"GET"/);
    expect(streamedText(events)).toBe(done.message.content);
    expect(done.message.contentPayload).toMatchObject({
      steps: [
        { name: "classify_intent", status: "success" },
        { name: "call_tool", status: "success" },
        { name: "answer", status: "success" },
      ],
      toolCalls: [{ name: "get_weather", status: "success" }],
    });
    const stored = await messagesOf(owner, done.conversationId);
    expect(stored.map((m) => `${m.sequence}:${m.type}`)).toEqual(["1:incoming", "2:outgoing"]);
    expect(await storedModelOf(done)).toBe(fallback.id);
    // Its retries, once: the fallback then answers the answer round too.
    expect(await upstreamRequestCount(primaryName)).toBe(3);
    expect(await upstreamRequestCount(fallbackName)).toBe(2);
    expect(await usageByModel(owner, bot.id)).toEqual([[fallback.id, 1]]);
  });

  it("rewrite, retrieve, answer: the fallback answers, and rewrites a continuing conversation's query", async () => {
    const owner = await seedOwner();
    const primaryName = `fail-500x99-${crypto.randomUUID()}`;
    const { bot, fallback, fallbackName, completion } = await assistant(owner, primaryName, {
      replyMode: "workflow",
      builtInWorkflow: REWRITE,
    });
    const first = await completion({ message: { content: "How long do refunds take?" } });
    expect(first.status, await first.clone().text()).toBe(200);
    const answered = await refinedBodyOf<"POST /chatbots/{chatbotId}/completions/", Completion>(first);
    expect(answered.content).toBe(ANSWER);
    const again = await completion({ conversation: answered.conversationId, message: { content: "and returns?" } });
    expect(again.status, await again.clone().text()).toBe(200);
    const second = await refinedBodyOf<"POST /chatbots/{chatbotId}/completions/", Completion>(again);
    expect(second.message.contentPayload.steps!.map((s) => s.name)).toEqual(["rewrite_query", "retrieve", "answer"]);
    expect(second.message.contentPayload.steps![0].output.query).toMatch(/^word1 word2/); // the fallback's rewrite
    expect(second.content).toBe(ANSWER);
    for (const r of [answered, second]) expect(await storedModelOf(r)).toBe(fallback.id);
    expect(await upstreamRequestCount(primaryName)).toBe(2); // the first answer; the second reply's rewrite
    expect(await upstreamRequestCount(fallbackName)).toBe(3);
    expect(await usageByModel(owner, bot.id)).toEqual([[fallback.id, 2]]);
  });

  it("does not take over an answer broken after its first words", async () => {
    const owner = await seedOwner();
    const primaryName = `fail-midstream-${crypto.randomUUID()}`;
    const { fallbackName, completion } = await assistant(owner, primaryName, {
      replyMode: "workflow",
      builtInWorkflow: REWRITE,
    });
    const events = await readEvents<StreamEvent>(
      await completion({ message: { content: "hello" }, isStreaming: true }),
    );
    expect(streamedText(events)).toBe("word1 word2 word3");
    expect(events.at(-1)).toMatchObject({ event: "error", data: { code: "upstream_error" } });
    expect(await upstreamRequestCount(fallbackName)).toBe(0);
    const conversationId = events.at(-1)!.data.conversationId as string;
    expect((await messagesOf(owner, conversationId)).map((m) => m.type)).toEqual(["incoming"]);
  });
});
