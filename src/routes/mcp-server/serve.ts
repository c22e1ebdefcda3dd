import type { Context, ExecutionContext } from "hono";
import * as streamableHttp from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { isJSONRPCRequest } from "@modelcontextprotocol/sdk/types.js";
import type { AppEnv, Bindings } from "../../env";
import { countedAlready } from "../../middleware/rate-limit";
import { invalidParams, platformMcpServer, type ApiDispatch } from "../../services/mcp/server";

/** How the MCP server's tools reach our API: the worker's own request handler. */
export type FetchApi = (request: Request, env: Bindings, ctx: ExecutionContext) => Response | Promise<Response>;

/** One JSON-RPC POST to `/mcp`, answered by a server built for this request. */
export async function serveMcp(c: Context<AppEnv>, fetchApi: FetchApi) {
  const forwarded: Record<string, string> = { Authorization: c.req.header("Authorization") ?? "" };
  const organization = c.req.header("X-Organization-Id");
  if (organization) forwarded["X-Organization-Id"] = organization;
  // The /mcp request was counted against the key's limit, and covers the API call of one tool; a batch of calls
  // (JSON-RPC takes up to 100 messages a POST) counts each further call as a request of its own.
  let covered = false;
  const dispatch: ApiDispatch = (method, path, body) => {
    const headers = { ...forwarded, ...(body === undefined ? {} : { "Content-Type": "application/json" }) };
    const request = new Request(new URL(`/api/v1${path}`, c.req.url), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const counted = covered ? request : countedAlready(request);
    covered = true;
    return Promise.resolve(fetchApi(counted, c.env, c.executionCtx));
  };
  const transport = new streamableHttp.WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  const server = platformMcpServer(dispatch);
  await server.connect(transport);
  // Requests whose params their method does not take are answered here, before the SDK's handler (invalidParams).
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const refused = isJSONRPCRequest(message) ? invalidParams(message) : null;
    if (refused) void transport.send(refused);
    else deliver?.(message, extra);
  };
  return transport.handleRequest(c.req.raw);
}
