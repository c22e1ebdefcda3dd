import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { CallToolResultSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { call, db, seedMember, seedOwner, type Actor } from "../../harness";
import { createChatbot, LOCAL_EMBEDDING, LOCAL_LLM, LOCAL_RERANKER } from "../../fixtures/chatbots";
import { chatbots, knowledgeBases } from "../../../src/db/schema";
import { uuidv7 } from "../../../src/lib/ids";
import { signIn } from "../sessions/fixtures";

/** The SDK's client, talking to the worker itself. */
async function connect(key: string | null, headers: Record<string, string> = {}) {
  const client = new Client(
    { name: "test-client", version: "1.0.0" },
    { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() },
  );
  const transport = new StreamableHTTPClientTransport(new URL("http://localhost/mcp"), {
    fetch: (url, init) => SELF.fetch(new Request(url, init)),
    requestInit: { headers: { ...(key ? { Authorization: `Api-Key ${key}` } : {}), ...headers } },
  });
  await client.connect(transport);
  return client;
}

/** A tool call's result, read as the current protocol's (the SDK's type also allows a 2024 `toolResult`). */
const callTool = async (client: Client, params: { name: string; arguments: Record<string, unknown> }) =>
  CallToolResultSchema.parse(await client.callTool(params));

/** The text of a result's first content part (the test fails if it is not text). */
function text(r: CallToolResult) {
  const [first] = r.content;
  if (first?.type !== "text") return expect.unreachable(`expected text content, got ${JSON.stringify(r)}`);
  return first.text;
}

/** What ask_assistant answers in `structuredContent`. */
const Asked = z.object({ conversationId: z.string(), content: z.string() });
const rpc = (key: string | null, body: string, path = "/mcp") =>
  SELF.fetch(`http://localhost${path}`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      ...(key ? { Authorization: `Api-Key ${key}` } : {}),
    },
    body,
  });

describe("our platform as an MCP server at /mcp", () => {
  it(
    "serves the SDK client: tools, list_assistants, ask_assistant (continuing a conversation), " +
      "search_knowledge_base",
    async () => {
      const owner = await seedOwner();
      const bot = await createChatbot(owner, { name: "Helpdesk" });
      const client = await connect(owner.key);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([
        "ask_assistant",
        "list_assistants",
        "list_knowledge_bases",
        "search_knowledge_base",
      ]);

      const listed = await callTool(client, { name: "list_assistants", arguments: {} });
      expect(listed.isError).toBeFalsy();
      // The text is the structured answer's JSON, as the protocol asks of a tool with an output schema.
      expect(JSON.parse(text(listed))).toEqual(listed.structuredContent);
      expect(listed.structuredContent).toEqual({
        count: 1,
        results: [expect.objectContaining({ id: bot.id, name: "Helpdesk" })],
      });

      const asked = await callTool(client, {
        name: "ask_assistant",
        arguments: { assistantId: bot.id, message: "Hello, who are you?" },
      });
      expect(asked.isError, JSON.stringify(asked)).toBeFalsy();
      const first = Asked.parse(asked.structuredContent);
      expect(first.content.length).toBeGreaterThan(0);
      const again = await callTool(client, {
        name: "ask_assistant",
        arguments: { assistantId: bot.id, message: "And again?", conversationId: first.conversationId },
      });
      expect(Asked.parse(again.structuredContent).conversationId).toBe(first.conversationId);

      const searched = await callTool(client, {
        name: "search_knowledge_base",
        arguments: { query: "refunds", assistantId: bot.id },
      });
      expect(searched.isError).toBeFalsy();
      const both = await callTool(client, {
        name: "search_knowledge_base",
        arguments: { query: "refunds" },
      });
      expect(both.isError).toBe(true);
      await client.close();
    },
  );

  it("list_assistants and list_knowledge_bases page past 100 by nextCursor, keeping the filter", async () => {
    const owner = await seedOwner();
    // 101 that match the filter and one that does not, written straight to the database: through the API they
    // took half a minute.
    const rows = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        id: uuidv7(),
        organizationId: owner.organizationId,
        createdById: owner.userId,
        name: `Paged ${i}`,
      }));
    const bots = rows(101);
    const bases = rows(101).map((r) => ({ ...r, embeddingModelId: LOCAL_EMBEDDING, rerankerModelId: LOCAL_RERANKER }));
    await db().batch([
      db()
        .insert(chatbots)
        .values({ ...rows(1)[0], name: "Elsewhere", largeLanguageModelId: LOCAL_LLM }),
      ...bots.map((r) =>
        db()
          .insert(chatbots)
          .values({ ...r, largeLanguageModelId: LOCAL_LLM }),
      ),
      ...bases.map((r) => db().insert(knowledgeBases).values(r)),
    ]);
    const client = await connect(owner.key);
    const Listed = z.object({
      count: z.number().optional(),
      results: z.array(z.object({ id: z.string() })),
      nextCursor: z.string().optional(),
    });
    /** Every page of a list tool, following nextCursor. */
    const walk = async (name: string, args: Record<string, unknown>) => {
      const pages = [];
      let cursor: string | undefined;
      do {
        const r = await callTool(client, { name, arguments: { ...args, ...(cursor ? { cursor } : {}) } });
        expect(r.isError, JSON.stringify(r).slice(0, 500)).toBeFalsy();
        const page = Listed.parse(r.structuredContent);
        pages.push(page);
        cursor = page.nextCursor;
      } while (cursor && pages.length < 5);
      return pages;
    };
    const botPages = await walk("list_assistants", { query: "Paged" });
    expect(botPages.map((p) => p.results.length)).toEqual([100, 1]);
    expect(botPages.map((p) => p.count)).toEqual([101, 101]);
    expect(botPages.flatMap((p) => p.results.map((r) => r.id)).sort()).toEqual(bots.map((r) => r.id).sort());
    const basePages = await walk("list_knowledge_bases", {});
    expect(basePages.map((p) => p.results.length)).toEqual([100, 1]);
    expect(basePages.flatMap((p) => p.results.map((r) => r.id)).sort()).toEqual(bases.map((r) => r.id).sort());
    const bad = await callTool(client, { name: "list_assistants", arguments: { cursor: "not-a-cursor" } });
    expect(bad.isError).toBe(true);
    await client.close();
  });

  it("acts within the key's organization and permissions", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const other = await seedOwner();
    const outsider = await connect(other.key);
    const foreign = await callTool(outsider, {
      name: "ask_assistant",
      arguments: { assistantId: bot.id, message: "hi" },
    });
    expect(foreign.isError).toBe(true);
    expect(text(foreign)).toMatch(/^HTTP 404/);
    const none = await callTool(outsider, { name: "list_assistants", arguments: {} });
    expect(none.structuredContent).toEqual({ count: 0, results: [] });

    const member = await seedMember(owner, ["chatbot.view"]);
    const limited = await connect(member.key, { "X-Organization-Id": owner.organizationId });
    // Asking needs conversation.manage.
    const denied = await callTool(limited, {
      name: "ask_assistant",
      arguments: { assistantId: bot.id, message: "hi" },
    });
    expect(denied.isError, JSON.stringify(denied)).toBe(true);
    expect(text(denied)).toMatch(/^HTTP 403/);
  });

  it("answers 401 without a valid key, and JSON-RPC errors for bad input, never 500", async () => {
    const owner: Actor = await seedOwner();
    for (const key of [null, "ak_NotAKey000000000000000000000000000000000"]) {
      const res = await rpc(key, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }));
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code: "not_authenticated" });
    }
    await expect(connect(null)).rejects.toThrow();
    const malformed = await rpc(owner.key, "{not json");
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32700 } });
    const notRpc = await rpc(owner.key, JSON.stringify({ hello: "world" }));
    expect(notRpc.status).toBe(400);
    // A tool call before initialize is refused by the protocol, as is a GET stream on this stateless server.
    const get = await SELF.fetch("http://localhost/mcp", {
      headers: { Authorization: `Api-Key ${owner.key}`, Accept: "text/event-stream" },
    });
    expect(get.status).toBe(405);
    const client = await connect(owner.key);
    const bad = await callTool(client, {
      name: "ask_assistant",
      arguments: { assistantId: "nope", message: "" },
    });
    expect(bad.isError).toBe(true);
    await expect(client.callTool({ name: "no_such_tool", arguments: {} })).resolves.toMatchObject({ isError: true });
  });

  it("answers invalid params with -32602 (Invalid params), not -32603 (Internal error)", async () => {
    const owner = await seedOwner();
    const bad = await rpc(
      owner.key,
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "list_assistants", arguments: "not an object" },
      }),
    );
    expect(await bad.json()).toMatchObject({ jsonrpc: "2.0", id: 1, error: { code: -32602 } });
    const init = await rpc(owner.key, JSON.stringify({ jsonrpc: "2.0", id: 2, method: "initialize", params: {} }));
    expect(await init.json()).toMatchObject({ id: 2, error: { code: -32602 } });
    // A method the server does not answer stays -32601, whatever its params.
    const unknown = await rpc(
      owner.key,
      JSON.stringify({ jsonrpc: "2.0", id: 3, method: "prompts/get", params: { name: 5 } }),
    );
    expect(await unknown.json()).toMatchObject({ id: 3, error: { code: -32601 } });
  });

  it("answers at /mcp/ too; refuses the console's session cookie (its tools call the API with the key)", async () => {
    const owner = await seedOwner();
    const list = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "list_assistants", arguments: {} },
    });
    const slashed = await rpc(owner.key, list, "/mcp/");
    expect(slashed.status, await slashed.clone().text()).toBe(200);
    expect(await slashed.json()).toMatchObject({ id: 1, result: { content: [{ type: "text" }] } });
    const browser = await signIn({ apiKey: owner.key });
    const res = await browser.fetch("POST", "/mcp", JSON.parse(list), {
      prefix: "",
      headers: { Accept: "application/json, text/event-stream" },
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: "not_authenticated", detail: expect.stringMatching(/API key/) });
  });

  it("one MCP tool call is one request of the key's limit, not two", async () => {
    // All of it within one minute's window: a new minute starts a new count.
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 10_000) await new Promise((r) => setTimeout(r, left + 50));
    const owner = await seedOwner();
    const toolCall = (id: number) =>
      call(
        "POST",
        "/mcp",
        JSON.stringify({
          jsonrpc: "2.0",
          id,
          method: "tools/call",
          params: { name: "list_assistants", arguments: {} },
        }),
        {
          Authorization: `Api-Key ${owner.key}`,
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
        },
        { RATE_LIMIT_PER_MINUTE: "4" },
      );
    // Three requests under a limit of four a minute: the API call each tool makes is part of its request.
    const answers = [];
    for (let i = 1; i <= 3; i++) {
      const res = await toolCall(i);
      answers.push({ status: res.status, body: await res.text() });
    }
    expect(answers.map((a) => (a.status === 200 && !a.body.includes("throttled") ? "ok" : a.body))).toEqual([
      "ok",
      "ok",
      "ok",
    ]);
    // The fourth request is the limit's last; a fifth is refused.
    expect((await toolCall(4)).status).toBe(200);
    expect((await toolCall(5)).status).toBe(429);
  });
});
