import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { lazy } from "../../lib/lazy";
import type { FetchApi } from "./serve";

const serve = lazy(() => import("./serve"));

/** Where the server answers: `/mcp`, and `/mcp/` as clients configured with a trailing slash send. */
export const MCP_PATHS = ["/mcp", "/mcp/"];

/**
 * `POST /mcp` (GET and DELETE answer 405: no server-initiated stream, no sessions): our platform as an MCP
 * server over Streamable HTTP, outside the OpenAPI document. Authenticated by the same API keys
 * (app.ts puts the key check in front); each request builds a server whose tools call the API as
 * the key through `fetchApi`, in `X-Organization-Id` when sent. Stateless with JSON answers: any
 * isolate can serve any request, with no session to keep in a Durable Object. The MCP SDK is
 * imported by the first request (docs/decisions.md, "Cold start").
 */
export function registerMcpServer(app: OpenAPIHono<AppEnv>, fetchApi: FetchApi) {
  app.on(["GET", "POST", "DELETE"], MCP_PATHS, async (c) => {
    // No server-initiated messages and no sessions: the spec's answer for a GET stream (and DELETE) is 405.
    if (c.req.method !== "POST") {
      return c.json(
        {
          jsonrpc: "2.0",
          error: { code: -32000, message: "Method not allowed: this server is stateless; POST JSON-RPC messages." },
          id: null,
        },
        405,
        { Allow: "POST" },
      );
    }
    const { serveMcp } = await serve();
    return serveMcp(c, fetchApi);
  });
}
