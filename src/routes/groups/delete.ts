import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { dataParts } from "../../services/shards/parts";
import { errorResponses, noContent } from "../../lib/openapi";
import { orgAccess, requirePermission } from "../../services/access";
import { deleteGroup } from "../../services/groups";
import { GroupParams } from "./schema";

const route = createRoute({
  method: "delete",
  path: "/organizations/{organizationPk}/groups/{id}/",
  tags: ["Roles and permissions"],
  summary: "Delete a group",
  description:
    "Needs `group.manage`. Its members lose the group's permissions at once; conversations it served lose their " +
    "team, and inboxes that assigned round-robin to it assign to every member who may serve conversations.",
  request: { params: GroupParams },
  responses: { 204: noContent, ...errorResponses(403, 404) },
});

export const registerDeleteGroup = (r: Router) =>
  r.openapi(route, async (c) => {
    const { organizationPk, id } = c.req.valid("param");
    const access = await orgAccess(c, organizationPk);
    requirePermission(access, "group.manage");
    await deleteGroup(c.var.db, await dataParts(c.env, access.organizationId), access.organizationId, id);
    return c.body(null, 204);
  });
