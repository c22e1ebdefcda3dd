// A real MCP server for tests and the MCP benchmark, written with the SDK's server API, on
// 127.0.0.1 with a random port. Paths:
//   /mcp          Streamable HTTP, one session per client (stateful), every tool below
//   /other/mcp    the same tools, as a second server (name clashes between servers)
//   /auth/mcp     the same, but answers 401 unless `Authorization: Bearer good-token`
//   /sse          the older HTTP+SSE transport (POSTs go to /messages?sessionId=...)
//   /html         200 text/html, not an MCP server
//   /hang         never answers
// /faults/mcp   as /mcp, plus the tools hang (never answers) and malformed (answers a result that is not a tool result)
//   /hang-list/mcp     as /mcp, but never answers tools/list
//   /endless-list/mcp  as /mcp, but tools/list answers an empty page with a next cursor, forever
//   GET /stats    {sessions, requests: [{method, path, authorization, apiKey, webhookSecret, webhookSignature,
//                 sessionId}], calls}
//   POST /stats/reset
// Tools: add {a, b}; whoami (the Authorization and X-Api-Key headers this call carried);
// fail (throws); sleep {ms}; big {bytes} (a text of that size); lookup_order {orderId}.
import http from "node:http";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";

export const GOOD_TOKEN = "good-token";

function buildServer(stats, { faults = false } = {}) {
  const server = new McpServer({ name: "test-mcp-server", version: "1.2.3" });
  // Tools without an input schema are called with `extra` alone.
  const counted =
    (name, fn) =>
    async (...params) => {
      stats.calls.push({ name, args: params.length > 1 ? params[0] : {}, at: Date.now() });
      return fn(...params);
    };
  server.registerTool(
    "add",
    {
      title: "Add numbers",
      description: "Adds two numbers a and b.",
      inputSchema: { a: z.number().describe("First"), b: z.number().describe("Second") },
    },
    counted("add", async ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] })),
  );
  server.registerTool(
    "whoami",
    { description: "Tells which credential headers the call carried." },
    counted("whoami", async (extra) => {
      const h = extra.requestInfo?.headers ?? {};
      return {
        content: [
          {
            type: "text",
            text: JSON.stringify({ authorization: h.authorization ?? null, apiKey: h["x-api-key"] ?? null }),
          },
        ],
      };
    }),
  );
  server.registerTool(
    "fail",
    { description: "Always fails." },
    counted("fail", async () => {
      throw new Error("the tool broke on purpose");
    }),
  );
  server.registerTool(
    "sleep",
    { description: "Waits ms milliseconds, then answers.", inputSchema: { ms: z.number().int().min(0).max(60_000) } },
    counted("sleep", async ({ ms }) => {
      await new Promise((r) => setTimeout(r, ms));
      return { content: [{ type: "text", text: `slept ${ms} ms` }] };
    }),
  );
  server.registerTool(
    "big",
    {
      description: "Answers a text of the given size.",
      inputSchema: { bytes: z.number().int().min(0).max(5_000_000) },
    },
    counted("big", async ({ bytes }) => ({ content: [{ type: "text", text: "x".repeat(bytes) }] })),
  );
  server.registerTool(
    "lookup_order",
    {
      title: "Order lookup",
      description: "Looks up the status of an order by its id.",
      inputSchema: { orderId: z.string() },
      outputSchema: { orderId: z.string(), status: z.string() },
    },
    counted("lookup_order", async ({ orderId }) => {
      const result = { orderId, status: "shipped" };
      return { content: [{ type: "text", text: JSON.stringify(result) }], structuredContent: result };
    }),
  );
  if (faults) {
    server.registerTool(
      "hang",
      { description: "Never answers." },
      counted("hang", () => new Promise(() => {})),
    );
    // Its call is answered by hand (faultyAnswer): the SDK's server would refuse to send a malformed result.
    server.registerTool(
      "malformed",
      { description: "Answers something that is not a tool result." },
      counted("malformed", async () => ({ content: [] })),
    );
  }
  return server;
}

/** The by-hand answer of a fault path to a JSON-RPC request: "hang", a JSON-RPC message, or null (the SDK's server
 * answers). */
function faultyAnswer(path, body) {
  if (path === "/hang-list/mcp" && body?.method === "tools/list") return "hang";
  if (path === "/endless-list/mcp" && body?.method === "tools/list")
    return { jsonrpc: "2.0", id: body.id, result: { tools: [], nextCursor: `page-${Date.now()}` } };
  if (path === "/faults/mcp" && body?.method === "tools/call" && body.params?.name === "malformed")
    return { jsonrpc: "2.0", id: body.id, result: { content: "not a list of parts", isError: "maybe" } };
  return null;
}

async function readJson(req) {
  let body = "";
  for await (const chunk of req) body += chunk;
  try {
    return body ? JSON.parse(body) : undefined;
  } catch {
    return undefined;
  }
}

export async function startMcpServer() {
  const stats = { sessions: 0, requests: [], calls: [] };
  const sessions = new Map();
  const sseSessions = new Map();
  const hanging = new Set();

  const streamable = async (req, res, path) => {
    const sessionId = req.headers["mcp-session-id"];
    const body = req.method === "POST" ? await readJson(req) : undefined;
    const fault = faultyAnswer(path, body);
    if (fault === "hang") return void hanging.add(res);
    if (fault) return void res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(fault));
    let transport = sessionId ? sessions.get(sessionId) : undefined;
    if (!transport) {
      if (sessionId || req.method !== "POST") {
        res
          .writeHead(sessionId ? 404 : 405, { "Content-Type": "application/json" })
          .end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "No such session" }, id: null }));
        return;
      }
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: true,
        onsessioninitialized: (id) => {
          stats.sessions++;
          sessions.set(id, transport);
        },
      });
      transport.onclose = () => transport.sessionId && sessions.delete(transport.sessionId);
      await buildServer(stats, { faults: path === "/faults/mcp" }).connect(transport);
    }
    await transport.handleRequest(req, res, body);
  };

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url, "http://mcp");
    const path = url.pathname;
    if (path === "/stats" && req.method === "GET") {
      res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(stats));
      return;
    }
    if (path === "/stats/reset") {
      stats.sessions = 0;
      stats.requests.length = 0;
      stats.calls.length = 0;
      res.writeHead(204).end();
      return;
    }
    stats.requests.push({
      method: req.method,
      path,
      authorization: req.headers.authorization ?? null,
      apiKey: req.headers["x-api-key"] ?? null,
      // What a webhook redirected here carried (send-test.test.ts: credentials stay with their origin).
      webhookSecret: req.headers["x-webhook-secret"] ?? null,
      webhookSignature: req.headers["webhook-signature"] ?? null,
      sessionId: req.headers["mcp-session-id"] ?? null,
    });
    if (stats.requests.length > 2000) stats.requests.splice(0, 1000);
    try {
      if (["/mcp", "/other/mcp", "/faults/mcp", "/hang-list/mcp", "/endless-list/mcp"].includes(path))
        return await streamable(req, res, path);
      if (path === "/auth/mcp") {
        if (req.headers.authorization !== `Bearer ${GOOD_TOKEN}`) {
          res.writeHead(401, { "Content-Type": "application/json" }).end(JSON.stringify({ error: "unauthorized" }));
          return;
        }
        return await streamable(req, res, path);
      }
      if (path === "/sse" && req.method === "GET") {
        const transport = new SSEServerTransport("/messages", res);
        sseSessions.set(transport.sessionId, transport);
        res.on("close", () => sseSessions.delete(transport.sessionId));
        stats.sessions++;
        await buildServer(stats).connect(transport);
        return;
      }
      if (path === "/sse" || (path === "/messages" && req.method === "POST")) {
        const transport = sseSessions.get(url.searchParams.get("sessionId") ?? "");
        if (!transport) {
          res.writeHead(path === "/sse" ? 405 : 404).end();
          return;
        }
        await transport.handlePostMessage(req, res, await readJson(req));
        return;
      }
      if (path === "/html") {
        res.writeHead(200, { "Content-Type": "text/html" }).end("<!doctype html><title>Not MCP</title><p>Hello</p>");
        return;
      }
      if (path === "/hang") {
        hanging.add(res);
        return;
      }
      res.writeHead(404, { "Content-Type": "text/plain" }).end("not found");
    } catch (err) {
      if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain" }).end(String(err));
    }
  });
  // Node closes an idle kept-alive connection after 5 s; the worker's runtime may reuse it just as it
  // closes ("Network connection lost", seen in the OpenAPI sweep under load). Idle connections stay
  // open longer than the tests' pauses between MCP calls.
  server.keepAliveTimeout = 120_000;
  server.headersTimeout = 125_000;
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = server.address().port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    stats,
    async close() {
      for (const res of hanging) res.destroy();
      for (const t of sessions.values()) await t.close().catch(() => {});
      for (const t of sseSessions.values()) await t.close().catch(() => {});
      server.closeAllConnections?.();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

// `node test/support/mcp-server.mjs` runs it alone (for wrangler dev checks).
if (import.meta.url === `file://${process.argv[1]}`) {
  const s = await startMcpServer();
  console.log(s.url);
}
