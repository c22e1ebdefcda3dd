import type { OpenAPIHono } from "@hono/zod-openapi";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { AppEnv } from "../../env";
import { platformMcpServer, type ApiDispatch } from "../../services/mcp/server";

/**
 * `POST /mcp` (GET and DELETE answer 405: no server-initiated stream, no sessions): our platform as an MCP
 * server over Streamable HTTP, outside the OpenAPI document. Authenticated by the same API keys
 * (app.ts puts the key check in front); each request builds a server whose tools call the API as
 * the key, in `X-Organization-Id` when sent. Stateless with JSON answers: any isolate can serve any
 * request, with no session to keep in a Durable Object.
 */
export function registerMcpServer(app: OpenAPIHono<AppEnv>) {
  app.on(["GET", "POST", "DELETE"], "/mcp", async (c) => {
    // No server-initiated messages and no sessions: the spec's answer for a GET stream (and DELETE) is 405.
    if (c.req.method !== "POST") {
      return c.json({ jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed: this server is stateless; POST JSON-RPC messages." }, id: null }, 405, { Allow: "POST" });
    }
    const forwarded: Record<string, string> = { Authorization: c.req.header("Authorization") ?? "" };
    const organization = c.req.header("X-Organization-Id");
    if (organization) forwarded["X-Organization-Id"] = organization;
    const dispatch: ApiDispatch = (method, path, body) => {
      const headers = { ...forwarded, ...(body === undefined ? {} : { "Content-Type": "application/json" }) };
      const request = new Request(new URL(`/api/v1${path}`, c.req.url), { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      return Promise.resolve(app.fetch(request, c.env, c.executionCtx));
    };
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    const server = platformMcpServer(dispatch);
    await server.connect(transport);
    return transport.handleRequest(c.req.raw);
  });
}
