import { createRoute } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { pageOf, pageParams, pageResponse } from "../../lib/pagination";
import { authorize } from "../../services/access";
import { getToolForRead } from "../../services/tools/access";
import { listToolExecutionRecords, type RecordFilters } from "../../services/tools/execution-records";
import { toolExecutionRecord, ToolExecutionRecordSchema } from "../../services/records/tool-execution-records";
import { RECORDS_TAG, RecordListQuery, ToolPkParams } from "./schema";
import { dataParts } from "../../services/shards/parts";

const DESCRIPTION =
  "Needs `tool.view`. Newest first. Owners see every call in the organization; other members the calls of " +
  "tools they can see. " +
  "Filters: chatbot, tool, toolType, status, query (assistant name, tool name or message text), startDate and " +
  "endDate (UTC days, inclusive).";
const page = pageOf(ToolExecutionRecordSchema, "ToolExecutionRecordPage");

const all = createRoute({
  method: "get",
  path: "/tool-execution-records/",
  tags: [RECORDS_TAG],
  summary: "List tool execution records",
  description: DESCRIPTION,
  request: { query: RecordListQuery },
  responses: { 200: json(page, "Page of records"), ...errorResponses(400, 403, 404) },
});

const ofTool = createRoute({
  method: "get",
  path: "/tools/{toolPk}/tool-execution-records/",
  tags: [RECORDS_TAG],
  summary: "List the execution records of one tool",
  description: `${DESCRIPTION} Scoped to the tool in the path (404 when you cannot see it).`,
  request: { params: ToolPkParams, query: RecordListQuery },
  responses: { 200: json(page, "Page of records"), ...errorResponses(400, 403, 404) },
});

async function listRecords(c: Context<AppEnv>, q: RecordFilters & { page: number; pageSize: number }, toolPk?: string) {
  const db = c.var.db;
  const access = await authorize(c, "tool.view");
  if (toolPk) await getToolForRead(db, access, toolPk);
  const p = pageParams(q);
  const parts = await dataParts(c.env, access.organizationId);
  const page = await listToolExecutionRecords(c.env, db, parts, access, c.var.principal.userId, q, toolPk, p);
  return pageResponse(c, p, page.count, page.items.map(toolExecutionRecord));
}

export function registerListRecords(r: Router) {
  r.openapi(all, async (c) => c.json(await listRecords(c, c.req.valid("query")), 200));
  r.openapi(ofTool, async (c) => c.json(await listRecords(c, c.req.valid("query"), c.req.valid("param").toolPk), 200));
}
