import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { dataParts } from "../../services/shards/parts";
import { IdParams, errorResponses, noContent } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { getToolToManage } from "../../services/tools/access";
import { deleteTool } from "../../services/tools/store";
import { dataDbs } from "../../services/shards";
import { TOOLS_TAG } from "./schema";

const route = createRoute({
  method: "delete",
  path: "/tools/{id}/",
  tags: [TOOLS_TAG],
  summary: "Delete a tool",
  description:
    "Needs `tool.manage` and a tool you can see. Assistants stop offering it at once; its execution records " +
    "stay, naming it.",
  request: { params: IdParams },
  responses: { 204: noContent, ...errorResponses(403, 404) },
});

export const registerDeleteTool = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "tool.manage");
    const row = await getToolToManage(c.var.db, access, c.req.valid("param").id, c.var.principal.isStaff, "delete");
    await deleteTool(c.var.db, row.organizationId ? await dataParts(c.env, row.organizationId) : dataDbs(c.env), row);
    return c.body(null, 204);
  });
