import { createRoute } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json } from "../../lib/openapi";
import { dataParts } from "../../services/shards/parts";
import { authorize, type OrgAccess } from "../../services/access";
import { getToolForRead } from "../../services/tools/access";
import { getRecordForRead } from "../../services/tools/execution-records";
import { toolExecutionRecord, ToolExecutionRecordSchema } from "../../services/records/tool-execution-records";
import { RECORDS_TAG, ToolPkIdParams } from "./schema";

const all = createRoute({
  method: "get",
  path: "/tool-execution-records/{id}/",
  tags: [RECORDS_TAG],
  summary: "Get a tool execution record",
  description: "Needs `tool.view` and a record you can see.",
  request: { params: IdParams },
  responses: { 200: json(ToolExecutionRecordSchema, "The record"), ...errorResponses(403, 404) },
});

const ofTool = createRoute({
  method: "get",
  path: "/tools/{toolPk}/tool-execution-records/{id}/",
  tags: [RECORDS_TAG],
  summary: "Get an execution record of one tool",
  description: "Needs `tool.view`; 404 unless the record is a call of the tool in the path and you can see both.",
  request: { params: ToolPkIdParams },
  responses: { 200: json(ToolExecutionRecordSchema, "The record"), ...errorResponses(403, 404) },
});

/** The record `id`, of the tool `toolId` when the path names one, as the caller may see it. */
async function readRecord(c: Context<AppEnv>, access: OrgAccess, id: string, toolId?: string) {
  const parts = await dataParts(c.env, access.organizationId);
  const row = await getRecordForRead(c.env, c.var.db, parts, access, c.var.principal.userId, id, toolId);
  return toolExecutionRecord(row);
}

export function registerGetRecord(r: Router) {
  r.openapi(all, async (c) => {
    const access = await authorize(c, "tool.view");
    return c.json(await readRecord(c, access, c.req.valid("param").id), 200);
  });
  r.openapi(ofTool, async (c) => {
    const access = await authorize(c, "tool.view");
    const { toolPk, id } = c.req.valid("param");
    const tool = await getToolForRead(c.var.db, access, toolPk);
    return c.json(await readRecord(c, access, id, tool.id), 200);
  });
}
