import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json, jsonBody } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { changeTool } from "../../services/tools/change";
import { toolView } from "../../services/tools/views";
import { toolRecord, ToolSchema, ToolPatch, ToolWrite } from "../../services/records/tools";
import { TOOLS_TAG } from "./schema";

const routeFor = (method: "put" | "patch") =>
  createRoute({
    method,
    path: "/tools/{id}/",
    tags: [TOOLS_TAG],
    summary: method === "put" ? "Replace a tool" : "Update some fields of a tool",
    description:
      "Needs `tool.manage` and a tool you can see (global tools: platform staff only). " +
      (method === "put" ? "`displayName` and `toolType` are required; " : "") +
      "fields left out keep their value; the rules of create apply to the result. `groups`, when given, " +
      "replaces the list. A header value sent back as the record shows it (masked) keeps the stored one while " +
      "the tool's URL stays at its origin (or only moves to https). Pointed at another server, a tool keeps none " +
      "of its stored header values (only those the body gives), and an mcp tool's members' credentials are " +
      "deleted. A change made while others change the tool's URLs or headers is checked again against theirs (409 " +
      "when it keeps finding them changed).",
    request: { params: IdParams, ...jsonBody(method === "put" ? ToolWrite : ToolPatch) },
    responses: { 200: json(ToolSchema, "The updated tool"), ...errorResponses(400, 403, 404, 409) },
  });

export function registerUpdateTool(r: Router) {
  for (const route of [routeFor("put"), routeFor("patch")]) {
    r.openapi(route, async (c) => {
      const access = await authorize(c, "tool.manage");
      const { id } = c.req.valid("param");
      const row = await changeTool(c.var.db, c.env, access, id, c.var.principal.isStaff, c.req.valid("json"));
      return c.json(toolRecord(await toolView(c.var.db, access, c.var.principal.isStaff, row)), 200);
    });
  }
}
