import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, noContent } from "../../lib/openapi";
import { currentAccess, requirePermission } from "../../services/access";
import { getToolForRead } from "../../services/tools/access";
import { revokeMemberCredential } from "../../services/mcp/credentials";
import { TOOLS_TAG } from "./schema";

const route = createRoute({
  method: "delete",
  path: "/tools/{id}/credentials/",
  tags: [TOOLS_TAG],
  summary: "Delete your own credential for an MCP tool",
  description: "Needs `tool.view` and a tool you can see. Takes effect on the next call. 204 also when you held none.",
  request: { params: IdParams },
  responses: { 204: noContent, ...errorResponses(403, 404) },
});

export const registerDeleteToolCredential = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await currentAccess(c);
    requirePermission(access, "tool.view");
    const tool = await getToolForRead(c.var.db, access, c.req.valid("param").id);
    await revokeMemberCredential(c.var.db, access.organizationId, access.memberId, { toolId: tool.id });
    return c.body(null, 204);
  });
