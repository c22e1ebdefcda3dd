import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { dataParts } from "../../services/shards/parts";
import { errorResponses, noContent } from "../../lib/openapi";
import { orgAccess, requirePermission } from "../../services/access";
import { deleteGroup } from "../../services/groups";
import { actorOf, releaseUnserving } from "../../services/assignment/release";
import { GroupParams } from "./schema";

const route = createRoute({
  method: "delete",
  path: "/organizations/{organizationPk}/groups/{id}/",
  tags: ["Roles and permissions"],
  summary: "Delete a group",
  description:
    "Needs `group.manage`. Its members lose the group's permissions at once; conversations it served lose their " +
    "team, and inboxes that assigned round-robin to it assign to every member who may serve conversations. " +
    "Members it leaves without `conversation.manage` have their unresolved conversations unassigned.",
  request: { params: GroupParams },
  responses: { 204: noContent, ...errorResponses(403, 404) },
});

export const registerDeleteGroup = (r: Router) =>
  r.openapi(route, async (c) => {
    const { organizationPk, id } = c.req.valid("param");
    const access = await orgAccess(c, organizationPk);
    requirePermission(access, "group.manage");
    const parts = await dataParts(c.env, access.organizationId);
    const memberIds = await deleteGroup(c.var.db, parts, access.organizationId, id);
    // Members left without conversation.manage may serve no conversation: theirs go to those who may.
    const actor = actorOf(c.var.principal.user);
    await releaseUnserving(c.env, c.var.db, access.organizationId, memberIds, actor, c.executionCtx);
    return c.body(null, 204);
  });
