import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { seedOwner, unique, type Actor } from "../harness";
import { agentWith } from "../support/tool-calls";
import { createTool } from "../fixtures/tools";
import { lastUpstreamRequest, upstreamModel } from "../routes/chat-completions/fixtures";
import { readEvents, storedReply, type StreamEvent } from "../support/sse";
import { bodyOf, refinedBodyOf } from "../support/api";

/**
 * Tools whose answers are slow, hang, are too large or malformed: api tools against the loopback
 * receiver (test/support/webhook-receiver.mjs), function tools that loop, MCP servers that hang
 * (test/support/mcp-server.mjs). Each ends in a recorded timeout or failure within the tool's
 * timeout (vitest.config.ts: TOOL_TIMEOUT_MS 1500, FUNCTION_TOOL_TIMEOUT_MS 1000), the model is
 * told, and the reply completes.
 */
const TOOL_TIMEOUT_MS = Number(env.TOOL_TIMEOUT_MS);
const FUNCTION_TIMEOUT_MS = Number(env.FUNCTION_TOOL_TIMEOUT_MS);
/** Scheduling on a loaded machine (two cores shared by several test runs); a hang would be unbounded. */
const SLACK_MS = 2_500;
/**
 * The upstream's words 5 ms apart, pinned (`-pace-5`, test/support/openai-upstream.mjs): an answer here repeats every
 * tool's error ("Result: Error (timeout): The API at ..."), 60 to 90 words, several seconds a turn at 50 ms a word,
 * and what these tests check is in the words, not in their pace.
 */
const PARALLEL_TOOLS = "parallel-tools-pace-5";
const pacedModel = (owner: Actor) => upstreamModel(owner, { modelName: `${unique("echo")}-pace-5` });

type ToolCall = { id: string; name: string; status: string; output: unknown; error: string | null; durationMs: number };
type Reply = {
  conversationId: string;
  content: string;
  message: { id: string; content: string; contentPayload: { toolCalls: ToolCall[] } };
};

/** The answer of a POST, its status asserted; the caller reads the body as the document types it. */
async function post(actor: Actor, path: string, body: unknown, status = 201) {
  const res = await actor.fetch("POST", path, body);
  expect(res.status, await res.clone().text()).toBe(status);
  return res;
}

const CITY = { type: "object", properties: { city: { type: "string" } } };
const apiTool = (owner: Actor, name: string, path: string) =>
  createTool(owner, {
    name,
    displayName: name,
    toolType: "api",
    apiUrl: `${env.TEST_RECEIVER_URL}${path}`,
    httpMethod: "get",
    rawParametersSchema: CITY,
  });
const functionTool = (owner: Actor, name: string, functionCode: string) =>
  createTool(owner, {
    name,
    displayName: name,
    toolType: "function",
    functionCode,
    rawParametersSchema: CITY,
  });
const mcpTool = (owner: Actor, name: string, path: string) =>
  createTool(owner, {
    name,
    displayName: name,
    toolType: "mcp",
    mcpUrl: `${env.TEST_MCP_URL}${path}`,
  });

const replyOf = (res: Response) => refinedBodyOf<"POST /chatbots/{chatbotId}/completions/", Reply>(res);

/** A completion, timed. */
async function ask(owner: Actor, botId: string, content: string) {
  const started = Date.now();
  const reply = await replyOf(await post(owner, `/chatbots/${botId}/completions/`, { message: { content } }, 200));
  return {
    reply,
    ms: Date.now() - started,
    calls: Object.fromEntries(reply.message.contentPayload.toolCalls.map((c) => [c.name, c])),
  };
}

async function storedRecords(owner: Actor, botId: string) {
  const res = await owner.fetch("GET", `/tool-execution-records/?chatbot=${botId}&pageSize=100`);
  expect(res.status).toBe(200);
  return Object.fromEntries((await bodyOf<"GET /tool-execution-records/">(res)).results.map((r) => [r.tool.name, r]));
}

/** Every call's status, error and duration against what is expected of it. */
function expectEndings(
  calls: Record<string, ToolCall>,
  expected: Record<string, [status: string, error: RegExp]>,
  limitMs: number,
) {
  for (const [name, [status, error]] of Object.entries(expected)) {
    expect(status.split("|"), name).toContain(calls[name].status);
    expect(calls[name].error, name).toMatch(error);
    expect(calls[name].durationMs, name).toBeLessThan(limitMs + SLACK_MS);
  }
}

describe("tool answers that are slow, hang, too large or malformed", () => {
  it("api tools: each a recorded timeout or failure within the timeout; the model told; the reply ends", async () => {
    const owner = await seedOwner();
    // The upstream's `parallel-tools` model (here paced) calls every tool at once, then answers "Result: " and what
    // each tool message said.
    const model = await upstreamModel(owner, { modelName: PARALLEL_TOOLS });
    const tools = await Promise.all([
      apiTool(owner, "trickling_api", "/trickle/x?ms=20000"),
      apiTool(owner, "slow_but_in_time_api", "/trickle/x?ms=300"),
      apiTool(owner, "hanging_api", "/hang/x"),
      apiTool(owner, "oversized_api", "/big/x?bytes=1500000"),
      apiTool(owner, "malformed_api", "/malformed/x"),
    ]);
    const bot = await agentWith(owner, tools, model);

    const { reply, calls } = await ask(owner, bot.id, "Try every tool");
    const expected: Record<string, [string, RegExp]> = {
      trickling_api: ["timeout", /timed out after 1\.5 s/],
      hanging_api: ["timeout", /timed out after 1\.5 s/],
      oversized_api: ["failure", /larger than 1048576 bytes/],
      malformed_api: ["failure", /not valid JSON/],
    };
    expectEndings(calls, expected, TOOL_TIMEOUT_MS);
    expect(calls.slow_but_in_time_api).toMatchObject({
      status: "success",
      output: { trickle: expect.stringMatching(/^x+$/) },
      error: null,
    });
    // What was read of the malformed and oversized answers is kept for the operator.
    expect(calls.malformed_api.output).toBe('{"temperature": 21, "unit": ');
    expect((calls.oversized_api.output as string).length).toBe(1024 * 1024);
    expect(reply.content).toMatch(/^Result: /);
    for (const said of [
      "Error (timeout): The API at ",
      "Error (failure): The API's answer says it is JSON",
      "Error (failure): The API's answer is larger",
    ]) {
      expect(reply.content).toContain(said);
    }
    const records = await storedRecords(owner, bot.id);
    for (const [name, [status]] of Object.entries(expected)) expect(records[name].status, name).toBe(status);
    // The next message of the conversation is answered as usual.
    const next = await replyOf(
      await post(
        owner,
        `/chatbots/${bot.id}/completions/`,
        { conversation: reply.conversationId, message: { content: "Again" } },
        200,
      ),
    );
    expect(next.content).toMatch(/^Result: /);
  });

  it(
    "function tools that loop, never settle, allocate without end or return too much: each a recorded timeout " +
      "or failure within the limit",
    async () => {
      const owner = await seedOwner();
      const model = await upstreamModel(owner, { modelName: PARALLEL_TOOLS });
      const tools = await Promise.all([
        functionTool(owner, "spin", "function main() { for (;;) {} }"),
        functionTool(owner, "async_spin", "async function main() { for (;;) await null; }"),
        functionTool(
          owner,
          "allocating_loop",
          "function main() { const a = []; for (;;) a.push({ n: a.length, s: 'x' + a.length }); }",
        ),
        functionTool(owner, "never_settles", "function main() { return new Promise(() => {}); }"),
        functionTool(owner, "string_doubling", "function main() { let s = 'x'; for (;;) s += s; }"),
        functionTool(owner, "oversized_result", "function main() { return 'x'.repeat(200000); }"),
      ]);
      const bot = await agentWith(owner, tools, model);
      const { reply, calls } = await ask(owner, bot.id, "Try every tool");
      const expected: Record<string, [string, RegExp]> = {
        spin: ["timeout", /did not finish/],
        async_spin: ["timeout", /did not finish/],
        // Whichever comes first on this machine: the time limit or the 32 MiB heap.
        allocating_loop: ["timeout|failure", /did not finish|out of memory/],
        never_settles: ["failure", /never settles/],
        string_doubling: ["failure", /string too long/],
        oversized_result: ["failure", /larger than 100000 characters/],
      };
      expectEndings(calls, expected, FUNCTION_TIMEOUT_MS);
      for (const said of [
        "Error (timeout): The function did not finish",
        "Error (failure): The function's result is larger",
      ])
        expect(reply.content).toContain(said);
      const records = await storedRecords(owner, bot.id);
      for (const [name, [status]] of Object.entries(expected))
        expect(status.split("|"), name).toContain(records[name].status);
    },
  );
});

describe("MCP servers that hang or answer malformed", () => {
  it(
    "a tool call that never answers times out within its timeout, the model is told, and the stream ends with " +
      "the reply",
    async () => {
      const owner = await seedOwner();
      const model = await pacedModel(owner);
      const tool = await mcpTool(owner, "faults", "/faults/mcp");
      const bot = await agentWith(owner, [tool], model);
      const started = Date.now();
      const res = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
        message: { content: "use faults__hang" },
        isStreaming: true,
      });
      expect(res.status).toBe(200);
      const events = await readEvents<StreamEvent>(res);
      expect(Date.now() - started).toBeLessThan(TOOL_TIMEOUT_MS + SLACK_MS + 2_000);
      const [result] = events.flatMap((e) => (e.event === "tool_result" ? [e.data] : []));
      expect(result).toMatchObject({
        name: "faults__hang",
        status: "timeout",
        error: "The MCP server did not answer within 1.5 s.",
      });
      expect(result.durationMs).toBeLessThan(TOOL_TIMEOUT_MS + SLACK_MS);
      const done = storedReply(events);
      expect(done).toMatchObject({
        done: true,
        message: { content: "Result: Error (timeout): The MCP server did not answer within 1.5 s." },
      });
      expect((await storedRecords(owner, bot.id)).faults__hang).toMatchObject({ status: "timeout" });
    },
  );

  it("a malformed tool result is a recorded failure the model is told about", async () => {
    const owner = await seedOwner();
    const model = await pacedModel(owner);
    const tool = await mcpTool(owner, "faults", "/faults/mcp");
    const bot = await agentWith(owner, [tool], model);
    const { reply, calls } = await ask(owner, bot.id, "use faults__malformed");
    expect(calls.faults__malformed).toMatchObject({ status: "failure" });
    expect(calls.faults__malformed.error).toMatch(/^The MCP call failed/);
    expect(reply.content).toMatch(/^Result: Error \(failure\): The MCP call failed/);
  });

  it(
    "a server that hangs at the handshake, at listing its tools, or pages without end is left out within the " +
      "timeout; the reply completes",
    async () => {
      const owner = await seedOwner();
      const model = await pacedModel(owner);
      const tools = await Promise.all([
        mcpTool(owner, "handshake", "/hang"),
        mcpTool(owner, "listing", "/hang-list/mcp"),
        mcpTool(owner, "paging", "/endless-list/mcp"),
      ]);
      const bot = await agentWith(owner, tools, model);
      const { reply, ms } = await ask(owner, bot.id, "Hello there");
      // The servers are tried at once; connecting and listing share one timeout.
      expect(ms).toBeLessThan(TOOL_TIMEOUT_MS + SLACK_MS + 2_000);
      expect(reply.message.contentPayload.toolCalls).toEqual([]);
      expect(reply.content).toBeTruthy();
      // Only the built-in handoff tool is left.
      expect(
        (await lastUpstreamRequest(model.modelName)).body.tools!.map(
          (t: { function: { name: string } }) => t.function.name,
        ),
      ).toEqual(["handoff"]);
    },
  );
});
