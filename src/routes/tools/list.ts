import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { pageOf, pageParams, pageResponse } from "../../lib/pagination";
import { authorize } from "../../services/access";
import { listTools } from "../../services/tools/store";
import { toolViews } from "../../services/tools/views";
import { toolRecord, ToolSchema } from "../../services/records/tools";
import { TOOLS_TAG, ToolListQuery } from "./schema";

const route = createRoute({
  method: "get",
  path: "/tools/",
  tags: [TOOLS_TAG],
  summary: "List the tools you can see",
  description:
    "Needs `tool.view`. Newest first. Owners see every tool of the organization; other members those given to " +
    "one of their groups. " +
    "`isGlobal=true` lists the platform's global tools instead. Desktop tools appear only with " +
    "`clientPlatform=desktop`.",
  request: { query: ToolListQuery },
  responses: { 200: json(pageOf(ToolSchema, "ToolPage"), "Page of tools"), ...errorResponses(400, 403, 404) },
});

export const registerListTools = (r: Router) =>
  r.openapi(route, async (c) => {
    const db = c.var.db;
    const access = await authorize(c, "tool.view");
    const q = c.req.valid("query");
    const p = pageParams(q);
    const page = await listTools(db, access, q, p);
    const views = await toolViews(db, access, c.var.principal.isStaff, page.items);
    return c.json(pageResponse(c, p, page.count, views.map(toolRecord)), 200);
  });
