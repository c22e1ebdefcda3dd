import type { Context, ExecutionContext } from "hono";
import * as streamableHttp from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { AppEnv, Bindings } from "../../env";
import { platformMcpServer, type ApiDispatch } from "../../services/mcp/server";

/** How the MCP server's tools reach our API: the worker's own request handler. */
export type FetchApi = (request: Request, env: Bindings, ctx: ExecutionContext) => Response | Promise<Response>;

/** One JSON-RPC POST to `/mcp`, answered by a server built for this request. */
export async function serveMcp(c: Context<AppEnv>, fetchApi: FetchApi) {
  const forwarded: Record<string, string> = { Authorization: c.req.header("Authorization") ?? "" };
  const organization = c.req.header("X-Organization-Id");
  if (organization) forwarded["X-Organization-Id"] = organization;
  const dispatch: ApiDispatch = (method, path, body) => {
    const headers = { ...forwarded, ...(body === undefined ? {} : { "Content-Type": "application/json" }) };
    const request = new Request(new URL(`/api/v1${path}`, c.req.url), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return Promise.resolve(fetchApi(request, c.env, c.executionCtx));
  };
  const transport = new streamableHttp.WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  const server = platformMcpServer(dispatch);
  await server.connect(transport);
  return transport.handleRequest(c.req.raw);
}
