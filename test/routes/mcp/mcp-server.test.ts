import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { CallToolResultSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { seedMember, seedOwner, type Actor } from "../../harness";
import { createChatbot } from "../../fixtures/chatbots";

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
const rpc = (key: string | null, body: string) =>
  SELF.fetch("http://localhost/mcp", {
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
      expect(JSON.parse(text(listed))).toEqual([expect.objectContaining({ id: bot.id, name: "Helpdesk" })]);

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
    expect(JSON.parse(text(await callTool(outsider, { name: "list_assistants", arguments: {} })))).toEqual([]);

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
});
