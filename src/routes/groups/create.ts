import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { orgAccess, requireGrantable, requirePermission } from "../../services/access";
import { checkOrganizationField, createGroup, groupRecord } from "../../services/groups";
import { GroupSchema, GroupWrite } from "../../services/records/groups";
import { OrganizationParams } from "./schema";

const route = createRoute({
  method: "post",
  path: "/organizations/{organizationPk}/groups/",
  tags: ["Roles and permissions"],
  summary: "Create a group (role) with permissions",
  description:
    "Needs `group.manage`; non-owners can grant only permissions they hold. Group names are unique in the " +
    "organization.",
  request: { params: OrganizationParams, ...jsonBody(GroupWrite) },
  responses: { 201: json(GroupSchema, "Created"), ...errorResponses(400, 403, 404, 409) },
});

export const registerCreateGroup = (r: Router) =>
  r.openapi(route, async (c) => {
    const { organizationPk } = c.req.valid("param");
    const access = await orgAccess(c, organizationPk);
    requirePermission(access, "group.manage");
    const body = c.req.valid("json");
    checkOrganizationField(body, access.organizationId);
    requireGrantable(access, body.permissions);
    const row = await createGroup(c.var.db, access.organizationId, body);
    return c.json(await groupRecord(c.var.db, row), 201);
  });
