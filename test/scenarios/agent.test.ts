import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { tools } from "../../src/db/schema";
import { db, seedMember, seedOwner, unique, expectError, type Actor } from "../harness";
import { createChatbot } from "../fixtures/chatbots";
import { createDesktopTool, createTool, weatherToolBody } from "../fixtures/tools";
import { createKnowledgeBase, ingest } from "../fixtures/knowledge";
import { lastUpstreamRequest, upstreamModel } from "../routes/chat-completions/fixtures";
import { readEvents, storedReply, type StreamEvent, streamedText } from "../support/sse";
import { bodyOf, refinedBodyOf } from "../support/api";
import { type ToolCall, agentWith } from "../support/tool-calls";

type Reply = {
  conversationId: string;
  content: string;
  message: {
    id: string;
    content: string;
    contentPayload: { toolCalls: ToolCall[]; flex?: unknown[]; quickReplies?: unknown[]; pendingToolCalls?: string[] };
    citations: unknown[];
  };
};

const completions = (id: string) => `/chatbots/${id}/completions/`;
const receiver = () => env.TEST_RECEIVER_URL;

const weatherTool = (owner: Actor, path = "/echo/weather", extra: Record<string, unknown> = {}) =>
  createTool(
    owner,
    weatherToolBody({ apiUrl: `${receiver()}${path}`, rawHeaders: { "X-Api-Key": "tool-secret" }, ...extra }),
  );

const fnTool = (
  owner: Actor,
  name: string,
  code: string,
  properties: Record<string, unknown> = { city: { type: "string" } },
) =>
  createTool(owner, {
    name,
    displayName: name,
    description: `Function ${name}`,
    toolType: "function",
    functionCode: code,
    rawParametersSchema: { type: "object", properties },
  });

/** The function tool add_numbers: `x + y` of its arguments. */
const addNumbers = (owner: Actor) =>
  fnTool(owner, "add_numbers", "function main(a) { return a.x + a.y; }", {
    x: { type: "number" },
    y: { type: "number" },
  });

async function ask(owner: Actor, botId: string, message: Record<string, unknown>) {
  const res = await owner.fetch("POST", completions(botId), { message });
  expect(res.status, await res.clone().text()).toBe(200);
  return await refinedBodyOf<"POST /chatbots/{chatbotId}/completions/", Reply>(res);
}

async function records(owner: Actor, query = "") {
  const res = await owner.fetch("GET", `/tool-execution-records/${query}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return await bodyOf<"GET /tool-execution-records/">(res);
}

describe("agent replies through an OpenAI-compatible upstream that calls tools", () => {
  it("calls an api tool (non-streaming), feeds the result back and records the call", async () => {
    const owner = await seedOwner();
    const model = await upstreamModel(owner);
    const weather = await weatherTool(owner);
    const bot = await agentWith(owner, [weather], model);
    const reply = await ask(owner, bot.id, { content: "What is the weather? use get_weather" });
    const [call] = reply.message.contentPayload.toolCalls;
    expect(call).toMatchObject({
      name: "get_weather",
      toolType: "api",
      input: { city: "Paris" },
      status: "success",
      error: null,
    });
    expect(call.output).toMatchObject({
      method: "GET",
      path: "/echo/weather",
      query: { city: "Paris" },
      headers: { "x-api-key": "tool-secret" },
    });
    expect(reply.content).toMatch(/^Result: \{"method":"GET"/);
    // The model got the tool as a function, then its result as a tool message.
    const last = await lastUpstreamRequest(model.modelName);
    expect(last.body.tools![0].function).toMatchObject({
      name: "get_weather",
      description: "Current weather of a city",
      parameters: { required: ["city"] },
    });
    const roles = last.body.messages.map((m: { role: string }) => m.role);
    expect(roles.slice(-2)).toEqual(["assistant", "tool"]);
    expect(last.body.messages.at(-2)!.tool_calls![0]).toMatchObject({
      id: "call_1",
      function: { name: "get_weather" },
    });
    expect(last.body.messages.at(-1)!.tool_call_id).toBe("call_1");

    const listed = await records(owner, `?chatbot=${bot.id}`);
    expect(listed.count).toBe(1);
    expect(listed.results[0]).toMatchObject({
      id: call.id,
      status: "success",
      message: reply.message.id,
      conversation: reply.conversationId,
      tool: { id: weather.id, name: "get_weather", toolType: "api" },
      input: { city: "Paris" },
    });
    expect(listed.results[0].durationMs).toBeGreaterThanOrEqual(0);
  });

  it(
    "streams tool_call and tool_result events in order before the text, then the message with " +
      "contentPayload.toolCalls",
    async () => {
      const owner = await seedOwner();
      const model = await upstreamModel(owner, { modelName: "parallel-tools" });
      const weather = await weatherTool(owner);
      const fn = await fnTool(owner, "city_length", "function main(args) { return { length: args.city.length }; }");
      const bot = await agentWith(owner, [weather, fn], model);
      const res = await owner.fetch("POST", completions(bot.id), {
        message: { content: "Weather and length?" },
        isStreaming: true,
      });
      expect(res.status).toBe(200);
      const events = await readEvents<StreamEvent>(res);
      const names = events.map((e) => e.event);
      const firstText = names.indexOf("message");
      expect(names.slice(0, 4).sort()).toEqual(["tool_call", "tool_call", "tool_result", "tool_result"]);
      expect(names.indexOf("tool_result")).toBeGreaterThan(names.indexOf("tool_call"));
      expect(firstText).toBeGreaterThan(names.lastIndexOf("tool_result"));
      const results = events.flatMap((e) => (e.event === "tool_result" ? [e.data] : []));
      expect(results.find((r) => r.name === "city_length")).toMatchObject({
        status: "success",
        output: { length: 5 },
        toolType: "function",
      });
      expect(results.find((r) => r.name === "get_weather")).toMatchObject({ status: "success", toolType: "api" });
      const done = storedReply(events);
      expect(done.done).toBe(true);
      expect(done.message.contentPayload).toMatchObject({
        toolCalls: [{ name: "get_weather" }, { name: "city_length" }],
      });
      expect(done.message.content).toContain('{"length":5}');
      const text = streamedText(events);
      expect(text).toBe(done.message.content);
    },
  );

  it("records timeouts and failures, and refuses private addresses at call time", async () => {
    const owner = await seedOwner();
    // Words 5 ms apart, pinned (test/support/openai-upstream.mjs `-pace-`): the answer repeats six tools' outcomes,
    // ~4 s at 50 ms a word, which on a loaded machine ran past the model's 5 s time-out (MODEL_TIMEOUT_MS).
    const model = await upstreamModel(owner, { modelName: "parallel-tools-pace-5" });
    const loop = await fnTool(owner, "spin", "function main() { for (;;) {} }");
    const thrower = await fnTool(owner, "thrower", "function main() { throw new Error('city unknown'); }");
    const hang = await weatherTool(owner, "/hang/x", { name: "slow_api" });
    const failing = await weatherTool(owner, "/fail/x", { name: "failing_api" });
    const redirect = await weatherTool(
      owner,
      `/redirect/x?to=${encodeURIComponent("http://169.254.169.254/latest/meta-data/")}`,
      { name: "sneaky_api" },
    );
    const big = await weatherTool(owner, "/big/x?bytes=1500000", { name: "big_api" });
    const bot = await agentWith(owner, [loop, thrower, hang, failing, redirect, big], model);
    const reply = await ask(owner, bot.id, { content: "Try everything" });
    const by = Object.fromEntries(reply.message.contentPayload.toolCalls.map((c) => [c.name, c]));
    expect(by.spin).toMatchObject({ status: "timeout" });
    expect(by.thrower).toMatchObject({ status: "failure", error: "Error: city unknown" });
    expect(by.slow_api).toMatchObject({ status: "timeout" });
    expect(by.failing_api).toMatchObject({ status: "failure", error: "The API answered 500." });
    expect(by.sneaky_api.status).toBe("failure");
    expect(by.sneaky_api.error).toMatch(/^Refused/);
    // Cut at 1 MiB, the answer is kept for the record but the call failed (test/scenarios/tool-faults.test.ts).
    expect(by.big_api.status).toBe("failure");
    expect((by.big_api.output as string).length).toBe(1024 * 1024);
    const stored = await records(owner, `?chatbot=${bot.id}&status=timeout`);
    expect(stored.results.map((r) => r.tool.name).sort()).toEqual(["slow_api", "spin"]);
    expect((await records(owner, `?chatbot=${bot.id}&status=failure`)).count).toBe(4);
    // The model heard about each outcome.
    expect(reply.content).toContain("Error (timeout)");
  });
});

describe("agent replies: a tool whose saved parameters schema the validator cannot use", () => {
  it("is the call's failure, recorded so, and the reply goes on (not a failed turn)", async () => {
    const owner = await seedOwner();
    const model = await upstreamModel(owner);
    const tool = await fnTool(owner, "lookup_order", "function main(a) { return { found: true }; }");
    // Saved before such schemas were refused: a property refers to a definition the schema does not have.
    const broken = { type: "object", properties: { id: { $ref: "#/$defs/OrderId" } } };
    await db().update(tools).set({ rawParametersSchema: broken }).where(eq(tools.id, tool.id));
    const bot = await agentWith(owner, [tool], model);
    const reply = await ask(owner, bot.id, { content: 'lookup_order ARGS {"id": "7"}' });
    expect(reply.message.contentPayload.toolCalls[0]).toMatchObject({ name: "lookup_order", status: "failure" });
    expect(reply.message.contentPayload.toolCalls[0].error).toContain("$defs/OrderId");
    const stored = await records(owner, `?chatbot=${bot.id}`);
    expect(stored.results.map((r) => r.status)).toEqual(["failure"]);
  });
});

describe("agent replies with the built-in local model (offline)", () => {
  it(
    "calls the tool whose name the question names, with arguments the question spells, and answers from its " +
      "result",
    async () => {
      const owner = await seedOwner();
      const add = await addNumbers(owner);
      const bot = await agentWith(owner, [add]);
      const reply = await ask(owner, bot.id, { content: "Please add numbers x: 2, y: 40" });
      expect(reply.message.contentPayload.toolCalls[0]).toMatchObject({
        name: "add_numbers",
        input: { x: 2, y: 40 },
        status: "success",
        output: 42,
      });
      expect(reply.content).toBe("add_numbers returned 42.");
    },
  );

  it("uses a tool the message's toolIds name, and answers without tools otherwise", async () => {
    const owner = await seedOwner();
    const echo = await fnTool(owner, "echo_city", "function main(a) { return 'echo ' + a.city; }");
    const bot = await agentWith(owner, [echo]);
    const plain = await ask(owner, bot.id, { content: "Hello there" });
    expect(plain.message.contentPayload.toolCalls).toEqual([]);
    expect(plain.content).toBe("Hello! How can I help you today?");
    const forced = await ask(owner, bot.id, { content: "Lyon", toolIds: [echo.id] });
    expect(forced.message.contentPayload.toolCalls[0]).toMatchObject({
      name: "echo_city",
      input: { city: "Lyon" },
      output: "echo Lyon",
    });
  });

  it("searches the knowledge bases as a tool and cites what it found", async () => {
    const owner = await seedOwner();
    const kb = await createKnowledgeBase(owner);
    await ingest(owner, kb.id, [
      {
        name: "returns.txt",
        content: "Returns are accepted within 30 days of delivery. Refunds take five business days.",
        type: "text/plain",
      },
    ]);
    const bot = await createChatbot(owner, {
      replyMode: "agent",
      knowledgeBases: [{ id: kb.id }],
      embeddingModel: null,
    });
    const reply = await ask(owner, bot.id, { content: "How many days do I have for returns?" });
    const [call] = reply.message.contentPayload.toolCalls;
    expect(call).toMatchObject({
      name: "search_knowledge_base",
      toolType: "knowledge",
      status: "success",
      input: { query: "How many days do I have for returns?" },
    });
    expect(reply.content).toContain("Returns are accepted within 30 days of delivery.");
    expect(reply.message.citations.length).toBe(1);
    const listed = await records(owner, "?toolType=knowledge");
    expect(listed.results[0]).toMatchObject({ tool: { id: null, toolType: "knowledge" } });
  });

  it("flex and quick-reply tools put their output into contentPayload", async () => {
    const owner = await seedOwner();
    const card = await createTool(owner, {
      name: "show_card",
      displayName: "Card",
      toolType: "flex",
      flexTemplateJson: { type: "bubble", body: { type: "text", text: "Title: {{title}}" }, footer: { label: "" } },
      flexSchema: { title: "A short title", "footer.label": { prompt: "Button label", tag: "label" } },
    });
    const chips = await createTool(owner, {
      name: "suggest_chips",
      displayName: "Chips",
      toolType: "quick_reply",
      quickReplyConfig: { mode: "static", items: ["Yes", { label: "No", text: "No thanks" }] },
    });
    const bot = await agentWith(owner, [card, chips]);
    const flex = await ask(owner, bot.id, { content: "show card title: Summer sale, footer_label: Buy" });
    expect(flex.message.contentPayload.flex, JSON.stringify(flex.message.contentPayload)).toEqual([
      { type: "bubble", body: { type: "text", text: "Title: Summer sale" }, footer: { label: "Buy" } },
    ]);
    const quick = await ask(owner, bot.id, { content: "suggest chips please" });
    expect(quick.message.contentPayload.quickReplies).toEqual([
      { label: "Yes", text: "Yes" },
      { label: "No", text: "No thanks" },
    ]);
  });

  it(
    "desktop tools: offered only to desktop clients, returned as a pending record that takes the client's " + "result",
    async () => {
      const owner = await seedOwner();
      const desktop = await createDesktopTool(owner);
      const bot = await agentWith(owner, [desktop]);
      const web = await ask(owner, bot.id, { content: "open file path: /tmp/a.txt" });
      expect(web.message.contentPayload.toolCalls).toEqual([]);
      const reply = await ask(owner, bot.id, {
        content: "open file path: /tmp/a.txt",
        metadata: { clientPlatform: "desktop" },
      });
      const [call] = reply.message.contentPayload.toolCalls;
      expect(call).toMatchObject({ name: "open_file", status: "pending", input: { path: "/tmp/a.txt" } });
      expect(reply.message.contentPayload.pendingToolCalls).toEqual([call.id]);
      const posted = await owner.fetch("POST", `/tool-execution-records/${call.id}/result/`, { output: { bytes: 12 } });
      expect(posted.status, await posted.clone().text()).toBe(200);
      expect(await posted.json()).toMatchObject({ id: call.id, status: "success", output: { bytes: 12 } });
      // The reply continues from the result in a new message.
      let continued: { content: string; contentPayload: Reply["message"]["contentPayload"] } | undefined;
      for (let i = 0; i < 50 && !continued; i++) {
        const page = await refinedBodyOf<
          "GET /messages/",
          { results: { contentPayload: Reply["message"]["contentPayload"] }[] }
        >(await owner.fetch("GET", `/messages/?conversation=${reply.conversationId}`));
        continued = page.results.find((m) => m.type === "outgoing" && m.id !== reply.message.id);
        if (!continued) await new Promise((r) => setTimeout(r, 50));
      }
      expect(continued?.content).toBe("open_file returned bytes: 12.");
      expect(continued?.contentPayload.toolCalls).toEqual([]);
      await expectError(await owner.fetch("POST", `/tool-execution-records/${call.id}/result/`, { output: 1 }), 400);
      const other = await seedOwner();
      await expectError(await other.fetch("POST", `/tool-execution-records/${call.id}/result/`, { output: 1 }), 404);
    },
  );

  it("a private note written while a desktop tool runs does not stop the reply continuing", async () => {
    const owner = await seedOwner();
    const bot = await agentWith(owner, [await createDesktopTool(owner)]);
    const reply = await ask(owner, bot.id, {
      content: "open file path: /tmp/a.txt",
      metadata: { clientPlatform: "desktop" },
    });
    const [call] = reply.message.contentPayload.toolCalls;
    const note = await owner.fetch("POST", "/messages/outgoing/", {
      conversation: reply.conversationId,
      content: "Customer is on the desktop app",
      private: true,
    });
    expect(note.status, await note.clone().text()).toBe(201);
    const posted = await owner.fetch("POST", `/tool-execution-records/${call.id}/result/`, { output: { bytes: 12 } });
    expect(posted.status, await posted.clone().text()).toBe(200);
    // The note is not in the visitor's chat: the reply is still the latest thing they saw, so it goes on.
    let continued: { content: string } | undefined;
    for (let i = 0; i < 50 && !continued; i++) {
      const page = await bodyOf<"GET /messages/">(
        await owner.fetch("GET", `/messages/?conversation=${reply.conversationId}`),
      );
      continued = page.results.find((m) => m.senderType === "chatbot" && m.content === "open_file returned bytes: 12.");
      if (!continued) await new Promise((r) => setTimeout(r, 50));
    }
    expect(continued?.content).toBe("open_file returned bytes: 12.");
  });

  it("a member cannot give an assistant a tool outside their groups", async () => {
    const owner = await seedOwner();
    const member = await seedMember(owner, ["chatbot.manage", "tool.view"]);
    const hidden = await fnTool(owner, unique("hidden").replace(/-/g, "_"), "function main() { return 1; }");
    const res = await member.fetch("POST", "/chatbots/", {
      name: unique("bot"),
      largeLanguageModel: "00000000-0000-7000-8000-000000000001",
      replyMode: "agent",
      tools: [{ id: hidden.id }],
      groups: [{ id: member.groupId }],
    });
    await expectError(res, 400);
  });

  it("asynchronous replies (POST /messages/) run the same loop", async () => {
    const owner = await seedOwner();
    const add = await addNumbers(owner);
    const bot = await agentWith(owner, [add]);
    const first = await ask(owner, bot.id, { content: "hello" });
    const res = await owner.fetch("POST", "/messages/", {
      conversation: first.conversationId,
      content: "add numbers x: 1, y: 2",
    });
    expect(res.status, await res.clone().text()).toBe(201);
    let reply: { content: string; contentPayload: Reply["message"]["contentPayload"] } | undefined;
    for (let i = 0; i < 50 && !reply; i++) {
      const page = await refinedBodyOf<
        "GET /messages/",
        { results: { contentPayload: Reply["message"]["contentPayload"] }[] }
      >(await owner.fetch("GET", `/messages/?conversation=${first.conversationId}`));
      reply = page.results.find((m) => m.type === "outgoing" && m.sequence === 4);
      if (!reply) await new Promise((r) => setTimeout(r, 50));
    }
    expect(reply?.content).toBe("add_numbers returned 3.");
    expect(reply?.contentPayload.toolCalls[0]).toMatchObject({ status: "success", output: 3 });
  });

  it("stops at the call limit", async () => {
    const owner = await seedOwner();
    // Twelve calls' arguments and the answer of their results, 5 ms apart, pinned (`-pace-`).
    const model = await upstreamModel(owner, { modelName: "parallel-tools-pace-5" });
    const made = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        fnTool(owner, `t${i}_${unique("x").replace(/-/g, "_")}`.slice(0, 60), `function main() { return ${i}; }`),
      ),
    );
    const bot = await agentWith(owner, made, model);
    const reply = await ask(owner, bot.id, { content: "go" });
    expect(reply.message.contentPayload.toolCalls).toHaveLength(10);
  });
});
