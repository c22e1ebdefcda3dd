import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { getToolForRead } from "../../services/tools/access";
import { recordOptions } from "../../services/tools/execution-records";
import { ChatbotOption, RECORDS_TAG, ToolOption, ToolPkParams } from "./schema";
import { dataParts } from "../../services/shards/parts";

type Kind = "chatbots" | "tools";
const SUMMARY: Record<Kind, string> = {
  chatbots: "Assistants that have tool execution records",
  tools: "Tools that have execution records",
};

const routeFor = (kind: Kind, scoped: boolean) =>
  createRoute({
    method: "get",
    path: scoped ? `/tools/{toolPk}/tool-execution-records/${kind}/` : `/tool-execution-records/${kind}/`,
    tags: [RECORDS_TAG],
    summary: scoped ? `${SUMMARY[kind]} (one tool)` : SUMMARY[kind],
    description:
      "Filter options for the record list: distinct, by name, among the records you can see. Needs `tool.view`.",
    request: scoped ? { params: ToolPkParams } : {},
    responses: {
      200: json(z.array(kind === "chatbots" ? ChatbotOption : ToolOption), "Filter options"),
      ...errorResponses(403, 404),
    },
  });

async function options(c: Context<AppEnv>, kind: Kind, toolPk?: string) {
  const db = c.var.db;
  const access = await authorize(c, "tool.view");
  if (toolPk) await getToolForRead(db, access, toolPk);
  const parts = await dataParts(c.env, access.organizationId);
  return recordOptions(db, parts, access, c.var.principal.userId, kind, toolPk);
}

export function registerRecordOptions(r: Router) {
  for (const kind of ["chatbots", "tools"] as const) {
    r.openapi(routeFor(kind, false), async (c) => c.json(await options(c, kind), 200));
    r.openapi(routeFor(kind, true), async (c) =>
      c.json(await options(c, kind, (c.req.valid("param" as never) as { toolPk: string }).toolPk), 200),
    );
  }
}
