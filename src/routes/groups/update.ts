import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { orgAccess, requirePermission } from "../../services/access";
import { checkOrganizationField, findGroup, groupRecord, updateGroup } from "../../services/groups";
import { GroupParams, GroupPatch, GroupSchema } from "./schema";

const route = createRoute({
  method: "patch",
  path: "/organizations/{organizationPk}/groups/{id}/",
  tags: ["Roles and permissions"],
  summary: "Update a group",
  description: "Requires `group.manage`. Fields left out keep their value; `permissions`, when given, replaces them entirely.",
  request: { params: GroupParams, ...jsonBody(GroupPatch) },
  responses: { 200: json(GroupSchema, "Updated"), ...errorResponses(400, 403, 404, 409) },
});

export const registerUpdateGroup = (r: Router) =>
  r.openapi(route, async (c) => {
    const { organizationPk, id } = c.req.valid("param");
    const access = await orgAccess(c, organizationPk);
    requirePermission(access, "group.manage");
    const body = c.req.valid("json");
    const group = await findGroup(c.var.db, access.organizationId, id);
    checkOrganizationField(body, access.organizationId);
    const row = await updateGroup(c.var.db, group, body);
    return c.json(await groupRecord(c.var.db, row), 200);
  });
