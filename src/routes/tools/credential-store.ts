import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json, jsonBody } from "../../lib/openapi";
import { fieldError } from "../../lib/errors";
import { ms } from "../../lib/time";
import { currentAccess, requirePermission } from "../../services/access";
import { getToolForRead } from "../../services/tools/access";
import { checkHeaders } from "../../services/mcp/connectors";
import { storeMemberCredential } from "../../services/mcp/credentials";
import { CredentialStatusSchema, CredentialWrite } from "../mcp/schema";
import { TOOLS_TAG } from "./schema";

const route = createRoute({
  method: "post",
  path: "/tools/{id}/credentials/",
  tags: [TOOLS_TAG],
  summary: "Store your own credential for an MCP tool",
  description:
    "Needs `tool.view` and an `mcp` tool you can see. Replaces any credential you held for it. Write-only, " +
    "encrypted at rest (503 " +
    "`not_configured` without ENCRYPTION_KEY). Conversations you start, and `available-tools` with this " +
    "`toolId`, send these headers instead " +
    "of the tool's `rawMcpHeader` (a contact's own credential still comes first).",
  request: { params: IdParams, ...jsonBody(CredentialWrite) },
  responses: { 201: json(CredentialStatusSchema, "Stored"), ...errorResponses(400, 403, 404, 503) },
});

export const registerStoreToolCredential = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await currentAccess(c);
    requirePermission(access, "tool.view");
    const tool = await getToolForRead(c.var.db, access, c.req.valid("param").id);
    if (tool.toolType !== "mcp") throw fieldError("id", "Only mcp tools take personal credentials.");
    const { headers } = c.req.valid("json");
    checkHeaders("headers", headers);
    const row = await storeMemberCredential(
      c.var.db,
      c.env,
      access.organizationId,
      access.memberId,
      { toolId: tool.id },
      headers,
    );
    return c.json({ hasCredential: true, createdAt: ms(row.createdAt), updatedAt: ms(row.updatedAt) }, 201);
  });
