import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { orgAccess, requirePermission } from "../../services/access";
import { groupRecord } from "../../services/groups";
import { changeGroup } from "../../services/permission-changes";
import { actorOf } from "../../services/assignment/release";
import { GroupPatch, GroupSchema, GroupWrite } from "../../services/records/groups";
import { GroupParams } from "./schema";

const routeFor = (method: "put" | "patch") =>
  createRoute({
    method,
    path: "/organizations/{organizationPk}/groups/{id}/",
    tags: ["Roles and permissions"],
    summary: method === "put" ? "Replace a group's name and permissions" : "Update a group",
    description:
      "Needs `group.manage`; non-owners can grant only permissions they hold. " +
      (method === "put"
        ? "`permissions` replaces the group's permissions entirely."
        : "Fields left out keep their value; `permissions`, when given, replaces them entirely.") +
      " Members it leaves without `conversation.manage` have their unresolved conversations unassigned.",
    request: { params: GroupParams, ...jsonBody(method === "put" ? GroupWrite : GroupPatch) },
    responses: { 200: json(GroupSchema, "Updated"), ...errorResponses(400, 403, 404, 409) },
  });

export function registerUpdateGroup(r: Router) {
  for (const route of [routeFor("put"), routeFor("patch")]) {
    r.openapi(route, async (c) => {
      const { organizationPk, id } = c.req.valid("param");
      const access = await orgAccess(c, organizationPk);
      requirePermission(access, "group.manage");
      const actor = actorOf(c.var.principal.user);
      const row = await changeGroup(c.env, c.var.db, c.executionCtx, access, actor, id, c.req.valid("json"));
      return c.json(await groupRecord(c.var.db, row), 200);
    });
  }
}
