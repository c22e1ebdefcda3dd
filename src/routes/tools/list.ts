import { createRoute } from "@hono/zod-openapi";
import { and, count, desc, eq, isNull, ne, or } from "drizzle-orm";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { pageOf, pageParams, pageResponse } from "../../lib/pagination";
import { contains } from "../../lib/sql";
import { tools } from "../../db/schema";
import { currentAccess, requirePermission } from "../../services/access";
import { visibleToolsCondition } from "../../services/tools/access";
import { toolViews } from "../../services/tools/views";
import { toolRecord } from "../../services/records/tools";
import { TOOLS_TAG, ToolListQuery, ToolSchema } from "./schema";

const route = createRoute({
  method: "get",
  path: "/tools/",
  tags: [TOOLS_TAG],
  summary: "List the tools you can see",
  description:
    "Needs `tool.view`. Newest first. Owners see every tool of the organization; other members those given to one of their groups. " +
    "`isGlobal=true` lists the platform's global tools instead. Desktop tools appear only with `clientPlatform=desktop`.",
  request: { query: ToolListQuery },
  responses: { 200: json(pageOf(ToolSchema, "ToolPage"), "Page of tools"), ...errorResponses(400, 403, 404) },
});

export const registerListTools = (r: Router) =>
  r.openapi(route, async (c) => {
    const db = c.var.db;
    const access = await currentAccess(c);
    requirePermission(access, "tool.view");
    const q = c.req.valid("query");
    const p = pageParams(q);
    const where = and(
      visibleToolsCondition(access),
      q.isGlobal === "true" ? isNull(tools.organizationId) : eq(tools.organizationId, access.organizationId),
      q.clientPlatform === "desktop" ? undefined : ne(tools.toolType, "desktop"),
      q.toolType ? eq(tools.toolType, q.toolType) : undefined,
      q.query ? or(contains(tools.name, q.query), contains(tools.displayName, q.query)) : undefined,
    );
    const [[{ n }], rows] = await Promise.all([
      db.select({ n: count() }).from(tools).where(where),
      db
        .select()
        .from(tools)
        .where(where)
        .orderBy(desc(tools.createdAt), desc(tools.id))
        .limit(p.limit)
        .offset(p.offset),
    ]);
    const views = await toolViews(db, access, c.var.principal.isStaff, rows);
    return c.json(pageResponse(c, p, n, views.map(toolRecord)), 200);
  });
