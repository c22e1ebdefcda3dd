import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { availableTools } from "../../services/mcp/available";
import { AvailableToolsQuery, AvailableToolsSchema } from "../mcp/schema";
import { TOOLS_TAG } from "./schema";

const route = createRoute({
  method: "get",
  path: "/tools/available-tools/",
  tags: [TOOLS_TAG],
  summary: "List the tools of an MCP server",
  description:
    "Needs `tool.view`. Connects to `mcpUrl` over Streamable HTTP (or the older HTTP+SSE transport), lists " +
    "the server's tools and keeps those " +
    "`mcpAllowedTools` and `availableTools` name. Headers sent: your stored credential for `toolId` when the " +
    "URL is that tool's server, else " +
    "`rawMcpHeader` (a value masked as the tool's record shows it stands for the tool's own, on its server), " +
    "else the tool's rawMcpHeader. A refused address, bad headers, an unreachable server, one " +
    "that refuses the credentials, one " +
    "that is not an MCP server, or a timeout is a 400 whose `detail` says which (codes `invalid`, " +
    "`mcp_unreachable`, `mcp_unauthorized`, `mcp_not_mcp`, `mcp_timeout`, `mcp_too_large`).",
  request: { query: AvailableToolsQuery },
  responses: { 200: json(AvailableToolsSchema, "The server and its tools"), ...errorResponses(400, 403, 404) },
});

export const registerAvailableTools = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "tool.view");
    return c.json(await availableTools(c.env, c.var.db, access, c.req.valid("query")), 200);
  });
