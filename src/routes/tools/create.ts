import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { forbidden } from "../../lib/errors";
import { authorize } from "../../services/access";
import { createTool } from "../../services/tools/change";
import { toolView } from "../../services/tools/views";
import { toolRecord, ToolSchema, ToolWrite } from "../../services/records/tools";
import { TOOLS_TAG } from "./schema";

const route = createRoute({
  method: "post",
  path: "/tools/",
  tags: [TOOLS_TAG],
  summary: "Create a tool",
  description:
    "Needs `tool.manage`. `toolType` decides the required fields: api (apiUrl, httpMethod), function " +
    "(functionCode, which must compile), " +
    "mcp (mcpUrl), flex (flexTemplateJson), quick_reply (quickReplyConfig); desktop tools are run by the " +
    "desktop client. " +
    "`name` is unique in the organization (409). Non-owners must give the tool to at least one of their own groups. " +
    "URLs pass the outbound address guard (no private, loopback or metadata addresses).",
  request: jsonBody(ToolWrite),
  responses: { 201: json(ToolSchema, "The created tool"), ...errorResponses(400, 403, 409) },
});

export const registerCreateTool = (r: Router) =>
  r.openapi(route, async (c) => {
    const db = c.var.db;
    const body = c.req.valid("json");
    const access = await authorize(c, "tool.manage");
    if (body.isGlobal && !c.var.principal.isStaff) throw forbidden("Only platform staff can create global tools.");
    const row = await createTool(db, c.env, access, c.var.principal.userId, body);
    return c.json(toolRecord(await toolView(db, access, c.var.principal.isStaff, row)), 201);
  });
