import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { seedMember, seedOwner, type Actor } from "../harness";
import { createChatbot } from "../fixtures/chatbots";
import { createTool } from "../fixtures/tools";
import { lastUpstreamRequest, upstreamModel } from "../routes/chat-completions/fixtures";
import { readEvents } from "../support/sse";
import { bodyOf, refinedBodyOf } from "../support/api";
import type { McpTestServer } from "../support/mcp-server.mjs";
import { receivedAt } from "../support/received";
import { type ToolCall, agentWith } from "../support/tool-calls";

type Reply = {
  conversationId: string;
  content: string;
  message: { id: string; contentPayload: { toolCalls: ToolCall[] } };
};

const mcp = (path = "/mcp") => `${env.TEST_MCP_URL}${path}`;
const CUSTOM_ENTRY = "00000000-0000-7000-8100-000000000001";

/** The answer of a POST, its status asserted; the caller reads the body as the document types it. */
async function post(actor: Actor, path: string, body: unknown, status = 201) {
  const res = await actor.fetch("POST", path, body);
  expect(res.status, await res.clone().text()).toBe(status);
  return res;
}

const mcpTool = (owner: Actor, extra: Record<string, unknown> = {}) =>
  createTool(owner, {
    name: "calc",
    displayName: "Calculator",
    toolType: "mcp",
    mcpUrl: mcp(),
    ...extra,
  });

/** A connector "Crm" of the registry's custom entry, on the test MCP server's endpoint that checks credentials. */
async function crmConnector(owner: Actor, extra: Record<string, unknown> = {}) {
  const body = { mcpRegistryId: CUSTOM_ENTRY, displayName: "Crm", urlVariables: { serverUrl: mcp("/auth/mcp") } };
  return bodyOf<"POST /connectors/">(await post(owner, "/connectors/", { ...body, ...extra }));
}

async function ask(actor: Actor, botId: string, content: string, extra: Record<string, unknown> = {}) {
  const res = await post(actor, `/chatbots/${botId}/completions/`, { message: { content, ...extra } }, 200);
  return refinedBodyOf<"POST /chatbots/{chatbotId}/completions/", Reply>(res);
}

async function mcpStats() {
  return (await fetch(`${env.TEST_MCP_URL}/stats`)).json<McpTestServer["stats"]>();
}

describe("agent replies calling MCP tools", () => {
  it("offers the server's tools namespaced, calls one through an OpenAI-compatible upstream, records it", async () => {
    const owner = await seedOwner();
    const model = await upstreamModel(owner);
    const tool = await mcpTool(owner, { mcpAllowedTools: ["add", "lookup_order", "whoami"] });
    const bot = await agentWith(owner, [tool], model);
    const reply = await ask(owner, bot.id, 'Please use calc__add ARGS {"a": 2, "b": 40}');
    const [call] = reply.message.contentPayload.toolCalls;
    expect(call).toMatchObject({
      name: "calc__add",
      displayName: "Calculator: Add numbers",
      toolType: "mcp",
      input: { a: 2, b: 40 },
      status: "success",
      output: "42",
      error: null,
    });
    expect(reply.content).toBe("Result: 42");
    const last = await lastUpstreamRequest(model.modelName);
    // Only the allowed tools, under the tool's namespace.
    expect(last.body.tools!.map((t: { function: { name: string } }) => t.function.name).sort()).toEqual([
      "calc__add",
      "calc__lookup_order",
      "calc__whoami",
      "handoff",
    ]);
    expect(
      last.body.tools!.find((t: { function: { name: string } }) => t.function.name === "calc__add")!.function
        .parameters,
    ).toMatchObject({ type: "object", required: ["a", "b"] });

    const records = await (await owner.fetch("GET", `/tool-execution-records/?chatbot=${bot.id}&toolType=mcp`)).json();
    expect(records).toMatchObject({
      count: 1,
      results: [
        {
          id: call.id,
          status: "success",
          tool: { id: tool.id, toolType: "mcp" },
          input: { a: 2, b: 40 },
          output: "42",
        },
      ],
    });
  });

  it("keeps one session for every call of a reply (parallel calls included) and ends it after", async () => {
    const owner = await seedOwner();
    const model = await upstreamModel(owner, { modelName: "parallel-tools" });
    const marker = `reply-${crypto.randomUUID()}`;
    const tool = await mcpTool(owner, {
      name: "orders",
      mcpAllowedTools: ["lookup_order", "add"],
      rawMcpHeader: { "X-Api-Key": marker },
    });
    const bot = await agentWith(owner, [tool], model);
    const reply = await ask(owner, bot.id, 'ARGS {"orderId": "A-1", "a": 1, "b": 2}');
    const calls = reply.message.contentPayload.toolCalls;
    expect(calls.map((c) => [c.name, c.status]).sort()).toEqual([
      ["orders__add", "success"],
      ["orders__lookup_order", "success"],
    ]);
    expect(calls.find((c) => c.name === "orders__lookup_order")!.output).toEqual({ orderId: "A-1", status: "shipped" });
    const mine = (await mcpStats()).requests.filter((r) => r.apiKey === marker);
    // initialize (no session yet), then everything on one session, ended with a DELETE once the reply was done.
    expect(new Set(mine.map((r) => r.sessionId).filter(Boolean)).size).toBe(1);
    expect(mine.filter((r) => r.method === "POST" && !r.sessionId)).toHaveLength(1);
    expect(mine.at(-1)!.method).toBe("DELETE");
  });

  it(
    "records a tool that errors as failure and one that sleeps past the timeout as timeout; the reply still " +
      "completes",
    async () => {
      const owner = await seedOwner();
      const model = await upstreamModel(owner);
      const tool = await mcpTool(owner, { name: "slow" });
      const bot = await agentWith(owner, [tool], model);
      const failed = await ask(owner, bot.id, "use slow__fail");
      expect(failed.message.contentPayload.toolCalls[0]).toMatchObject({
        name: "slow__fail",
        status: "failure",
        error: "the tool broke on purpose",
      });
      const timedOut = await ask(owner, bot.id, 'use slow__sleep ARGS {"ms": 5000}');
      expect(timedOut.message.contentPayload.toolCalls[0]).toMatchObject({ name: "slow__sleep", status: "timeout" });
      expect(timedOut.content).toMatch(/^Result: Error \(timeout\)/);
    },
  );

  it("streams tool_call and tool_result events for MCP tools", async () => {
    const owner = await seedOwner();
    const model = await upstreamModel(owner);
    const tool = await mcpTool(owner);
    const bot = await agentWith(owner, [tool], model);
    const res = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
      message: { content: 'use calc__add ARGS {"a": 1, "b": 1}' },
      isStreaming: true,
    });
    expect(res.status).toBe(200);
    const events = await readEvents(res);
    const names = events.map((e) => e.event).filter((e) => e === "tool_call" || e === "tool_result");
    expect(names).toEqual(["tool_call", "tool_result"]);
    expect(events.find((e) => e.event === "tool_result")!.data).toMatchObject({
      name: "calc__add",
      toolType: "mcp",
      status: "success",
      output: "2",
    });
  });

  it("leaves out a server it cannot reach, and the reply goes on without it", async () => {
    const owner = await seedOwner();
    const model = await upstreamModel(owner);
    const tool = await mcpTool(owner, { name: "gone", mcpUrl: mcp("/html") });
    const bot = await agentWith(owner, [tool], model);
    const reply = await ask(owner, bot.id, "Hello there");
    expect(reply.message.contentPayload.toolCalls).toEqual([]);
    // Only the built-in handoff tool is left.
    expect(
      (await lastUpstreamRequest(model.modelName)).body.tools!.map(
        (t: { function: { name: string } }) => t.function.name,
      ),
    ).toEqual(["handoff"]);
  });

  it(
    "sends the member's credential over rawMcpHeader, the contact's over both; revocation applies on the next " +
      "reply",
    async () => {
      const owner = await seedOwner();
      const member = await seedMember(owner, ["tool.view", "chatbot.view", "conversation.manage", "contact.manage"]);
      const model = await upstreamModel(owner);
      const group = member.groupId!;
      const tool = await mcpTool(owner, {
        name: "who",
        rawMcpHeader: { Authorization: "Bearer default" },
        mcpAllowedTools: ["whoami"],
        groups: [{ id: group }],
      });
      const bot = await createChatbot(owner, {
        largeLanguageModel: model.id,
        replyMode: "agent",
        tools: [{ id: tool.id }],
        groups: [{ id: group }],
      });
      const whoami = async (actor: Actor, extra: Record<string, unknown> = {}) =>
        (await ask(actor, bot.id, "use who__whoami", extra)).message.contentPayload.toolCalls[0].output;

      expect(await whoami(member)).toEqual({ authorization: "Bearer default", apiKey: null });
      await post(member, `/tools/${tool.id}/credentials/`, { headers: { Authorization: "Bearer member-token" } });
      expect(await whoami(member)).toEqual({ authorization: "Bearer member-token", apiKey: null });
      // Another member (the owner) still sends the default.
      expect(await whoami(owner)).toEqual({ authorization: "Bearer default", apiKey: null });

      const contact = await bodyOf<"POST /contacts/">(
        await post(member, "/contacts/", {
          name: "Visitor",
          mcpCredentials: [{ toolId: tool.id, headers: { Authorization: "Bearer contact-token" } }],
        }),
      );
      expect(await whoami(member, { sender: contact.id })).toEqual({
        authorization: "Bearer contact-token",
        apiKey: null,
      });

      const revoked = await member.fetch("DELETE", `/tools/${tool.id}/credentials/`);
      expect(revoked.status).toBe(204);
      expect(await whoami(member)).toEqual({ authorization: "Bearer default", apiKey: null });
    },
  );

  it(
    "offers enabled connectors' tools (not disabled ones), with their headers, and a member's credential in " +
      "their place",
    async () => {
      const owner = await seedOwner();
      const model = await upstreamModel(owner);
      const connector = await crmConnector(owner, { authHeaders: { Authorization: "Bearer good-token" } });
      const bot = await createChatbot(owner, { largeLanguageModel: model.id, replyMode: "agent" });
      const first = await ask(owner, bot.id, "use Crm__whoami");
      expect(first.message.contentPayload.toolCalls[0]).toMatchObject({
        name: "Crm__whoami",
        toolType: "mcp",
        status: "success",
        output: { authorization: "Bearer good-token" },
      });
      expect(
        (
          await bodyOf<"GET /tool-execution-records/{id}/">(
            await owner.fetch("GET", `/tool-execution-records/${first.message.contentPayload.toolCalls[0].id}/`),
          )
        ).tool,
      ).toMatchObject({ id: null, toolType: "mcp" });

      // The owner's own (wrong) credential replaces the connector's: the server refuses it, so the connector is left
      // out.
      await post(owner, `/connectors/${connector.id}/credentials/`, { headers: { Authorization: "Bearer wrong" } });
      const members = await bodyOf<"GET /connectors/{id}/authorized-members/">(
        await owner.fetch("GET", `/connectors/${connector.id}/authorized-members/`),
      );
      expect(members).toHaveLength(1);
      expect((await ask(owner, bot.id, "use Crm__whoami")).message.contentPayload.toolCalls).toEqual([]);
      // Revoked by id: the next reply sends the connector's headers again.
      expect(
        (await owner.fetch("DELETE", `/connectors/${connector.id}/authorized-members/${members[0].memberId}/`)).status,
      ).toBe(204);
      expect((await ask(owner, bot.id, "use Crm__whoami")).message.contentPayload.toolCalls[0]).toMatchObject({
        status: "success",
      });

      await owner.fetch("PATCH", `/connectors/${connector.id}/`, { isEnabled: false });
      expect((await ask(owner, bot.id, "use Crm__whoami")).message.contentPayload.toolCalls).toEqual([]);
    },
  );

  it("a member's personal connector credential is not sent to a server the connector was moved to", async () => {
    const owner = await seedOwner();
    const model = await upstreamModel(owner);
    const connector = await crmConnector(owner, { authHeaders: { "X-Service": "service-secret" } });
    // The owner's personal token for the CRM server.
    const secret = `Bearer owner-personal-${crypto.randomUUID()}`;
    await post(owner, `/connectors/${connector.id}/credentials/`, { headers: { Authorization: secret } });

    // Another member who may manage tools points the connector at a server of their choosing.
    const manager = await seedMember(owner, ["tool.view", "tool.manage"]);
    const marker = `/ok/moved-${crypto.randomUUID()}`;
    const moved = await manager.fetch("PATCH", `/connectors/${connector.id}/`, {
      urlVariables: { serverUrl: `${env.TEST_RECEIVER_URL}${marker}` },
    });
    expect(moved.status, await moved.clone().text()).toBe(200);
    expect(await moved.json()).toMatchObject({ hasAuthHeaders: false });

    // The owner's next agent reply connects to the connector's (new) server, with neither credential.
    const bot = await createChatbot(owner, { largeLanguageModel: model.id, replyMode: "agent" });
    await ask(owner, bot.id, "hello");
    const requests = await receivedAt(marker);
    expect(requests.length, "the reply connected to the moved connector").toBeGreaterThan(0);
    expect(requests.map((r) => r.headers.authorization ?? null)).not.toContain(secret);
    expect(requests.map((r) => r.headers["x-service"] ?? null)).not.toContain("service-secret");
  });

  it(
    "an mcp tool keeps its credentials within its server's origin; pointed at another server, it sends neither " +
      "its members' credentials nor its default headers there",
    async () => {
      const owner = await seedOwner();
      // A member who may manage the tools of their group.
      const manager = await seedMember(owner, ["tool.view", "tool.manage"]);
      const model = await upstreamModel(owner);
      const tool = await mcpTool(owner, {
        name: "who",
        rawMcpHeader: { "X-Api-Key": "default-secret" },
        mcpAllowedTools: ["whoami"],
        groups: [{ id: manager.groupId! }],
      });
      const bot = await agentWith(owner, [tool], model);
      const secret = `Bearer owner-personal-${crypto.randomUUID()}`;
      await post(owner, `/tools/${tool.id}/credentials/`, { headers: { Authorization: secret } });
      const whoami = async () =>
        (await ask(owner, bot.id, "use who__whoami")).message.contentPayload.toolCalls[0]?.output ?? null;

      // Another path of the same server, the headers sent back as the record shows them: all stays.
      const read = await bodyOf<"GET /tools/{id}/">(await owner.fetch("GET", `/tools/${tool.id}/`));
      const within = await owner.fetch("PATCH", `/tools/${tool.id}/`, {
        mcpUrl: mcp("/other/mcp"),
        rawMcpHeader: read.rawMcpHeader,
      });
      expect(within.status, await within.clone().text()).toBe(200);
      expect(await whoami()).toEqual({ authorization: secret, apiKey: null });

      const marker = `/ok/moved-${crypto.randomUUID()}`;
      const moved = await manager.fetch("PATCH", `/tools/${tool.id}/`, {
        mcpUrl: `${env.TEST_RECEIVER_URL}${marker}`,
        rawMcpHeader: read.rawMcpHeader,
      });
      expect(moved.status, await moved.clone().text()).toBe(200);
      expect(await moved.json()).toMatchObject({ rawMcpHeader: {} });
      expect(await whoami()).toBeNull();
      const requests = await receivedAt(marker);
      expect(requests.length, "the reply connected to the moved tool's server").toBeGreaterThan(0);
      expect(requests.map((r) => r.headers.authorization ?? null)).not.toContain(secret);
      expect(requests.map((r) => r.headers["x-api-key"] ?? null)).not.toContain("default-secret");
      // Back at the first server, the member's credential does not come back with it.
      await owner.fetch("PATCH", `/tools/${tool.id}/`, { mcpUrl: mcp(), rawMcpHeader: { "X-Api-Key": "k" } });
      expect(await whoami()).toEqual({ authorization: null, apiKey: "k" });
    },
  );

  it("a contact's credentials for a tool or a connector are not sent to a server it was moved to", async () => {
    const owner = await seedOwner();
    const manager = await seedMember(owner, ["tool.view", "tool.manage"]);
    const model = await upstreamModel(owner);
    const tool = await mcpTool(owner, { name: "who", mcpAllowedTools: ["whoami"], groups: [{ id: manager.groupId! }] });
    const connector = await crmConnector(owner);
    const bot = await agentWith(owner, [tool], model);
    const secret = `Bearer contact-${crypto.randomUUID()}`;
    const contact = await bodyOf<"POST /contacts/">(
      await post(owner, "/contacts/", {
        name: "Visitor",
        mcpCredentials: [
          { toolId: tool.id, headers: { Authorization: `${secret}-tool` } },
          { connectorId: connector.id, headers: { Authorization: `${secret}-connector` } },
        ],
      }),
    );
    const reply = (content: string) => ask(owner, bot.id, content, { sender: contact.id });
    // Another path of the same server keeps it.
    await owner.fetch("PATCH", `/tools/${tool.id}/`, { mcpUrl: mcp("/other/mcp") });
    expect((await reply("use who__whoami")).message.contentPayload.toolCalls[0].output).toEqual({
      authorization: `${secret}-tool`,
      apiKey: null,
    });

    const marker = `/ok/moved-${crypto.randomUUID()}`;
    for (const [path, body] of [
      [`/tools/${tool.id}/`, { mcpUrl: `${env.TEST_RECEIVER_URL}${marker}/tool` }],
      [`/connectors/${connector.id}/`, { urlVariables: { serverUrl: `${env.TEST_RECEIVER_URL}${marker}/crm` } }],
    ] as const) {
      const moved = await manager.fetch("PATCH", path, body);
      expect(moved.status, await moved.clone().text()).toBe(200);
    }
    await reply("hello");
    for (const server of ["tool", "crm"]) {
      const requests = await receivedAt(`${marker}/${server}`);
      expect(requests.length, `the reply connected to the moved ${server}`).toBeGreaterThan(0);
      expect(requests.map((r) => r.headers.authorization ?? "").filter((h) => h.startsWith(secret))).toEqual([]);
    }
  });

  it("namespaces two servers with tools of the same name apart", async () => {
    const owner = await seedOwner();
    const model = await upstreamModel(owner);
    const a = await mcpTool(owner, { name: "one", mcpAllowedTools: ["add"] });
    const b = await mcpTool(owner, { name: "two", mcpUrl: mcp("/other/mcp"), mcpAllowedTools: ["add"] });
    const bot = await agentWith(owner, [a, b], model);
    const reply = await ask(owner, bot.id, 'use two__add ARGS {"a": 3, "b": 4}');
    expect(reply.message.contentPayload.toolCalls[0]).toMatchObject({ name: "two__add", output: "7" });
    expect(
      (await lastUpstreamRequest(model.modelName)).body
        .tools!.map((t: { function: { name: string } }) => t.function.name)
        .sort(),
    ).toEqual(["handoff", "one__add", "two__add"]);
  });
});
