import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { getToolForRead } from "../../services/tools/access";
import { toolView } from "../../services/tools/views";
import { toolRecord, ToolSchema } from "../../services/records/tools";
import { TOOLS_TAG } from "./schema";

const route = createRoute({
  method: "get",
  path: "/tools/{id}/",
  tags: [TOOLS_TAG],
  summary: "Get a tool",
  description:
    "Needs `tool.view` and a tool you can see (owners: every tool of the organization; others: through their groups).",
  request: { params: IdParams },
  responses: { 200: json(ToolSchema, "The tool"), ...errorResponses(403, 404) },
});

export const registerGetTool = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "tool.view");
    const row = await getToolForRead(c.var.db, access, c.req.valid("param").id);
    return c.json(toolRecord(await toolView(c.var.db, access, c.var.principal.isStaff, row)), 200);
  });
