import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../../lib/openapi";
import { errorResponses, noContent } from "../../../lib/openapi";
import { removeGroupChatbot } from "../../../services/group-chatbots";
import { groupWith } from "../access";
import { GroupChatbotParams } from "./schema";

const route = createRoute({
  method: "delete",
  path: "/organizations/{organizationPk}/groups/{groupPk}/group-chatbots/{id}/",
  tags: ["Roles and permissions"],
  summary: "Take an assistant away from a group",
  description:
    "Needs `group.manage`. `id` is the link's id (from the list). The assistant stays; the group's members " +
    "no longer see it through this group.",
  request: { params: GroupChatbotParams },
  responses: { 204: noContent, ...errorResponses(403, 404) },
});

export const registerDeleteGroupChatbot = (r: Router) =>
  r.openapi(route, async (c) => {
    const { organizationPk, groupPk, id } = c.req.valid("param");
    const { access, group } = await groupWith(c, organizationPk, groupPk, "group.manage");
    await removeGroupChatbot(c.var.db, access, c.var.principal.userId, group.id, id);
    return c.body(null, 204);
  });
