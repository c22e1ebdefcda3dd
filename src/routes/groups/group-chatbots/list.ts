import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../../lib/openapi";
import { errorResponses, json } from "../../../lib/openapi";
import { pageOf, pageParams, pageResponse } from "../../../lib/pagination";
import { listGroupChatbots } from "../../../services/group-chatbots";
import { GroupChatbotSchema } from "../../../services/records/group-chatbots";
import { groupWith } from "../access";
import { GroupChatbotListQuery, GroupPkParams } from "./schema";

const route = createRoute({
  method: "get",
  path: "/organizations/{organizationPk}/groups/{groupPk}/group-chatbots/",
  tags: ["Roles and permissions"],
  summary: "List a group's assistants",
  description: "Needs `group.view`. Only assistants you can see are listed (owners see all). Oldest link first.",
  request: { params: GroupPkParams, query: GroupChatbotListQuery },
  responses: {
    200: json(pageOf(GroupChatbotSchema, "GroupChatbotPage"), "Group assistants"),
    ...errorResponses(400, 403, 404),
  },
});

export const registerListGroupChatbots = (r: Router) =>
  r.openapi(route, async (c) => {
    const { organizationPk, groupPk } = c.req.valid("param");
    const { access, group } = await groupWith(c, organizationPk, groupPk, "group.view");
    const db = c.var.db;
    const { query, ...page } = c.req.valid("query");
    const p = pageParams(page);
    const found = await listGroupChatbots(db, access, c.var.principal.userId, group.id, query, p);
    return c.json(pageResponse(c, p, found.count, found.items), 200);
  });
