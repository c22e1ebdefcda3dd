import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../../lib/openapi";
import { addGroupChatbots } from "../../../services/group-chatbots";
import { GroupChatbotSchema } from "../../../services/records/group-chatbots";
import { groupWith } from "../access";
import { BulkCreateGroupChatbots, GroupPkParams } from "./schema";

const route = createRoute({
  method: "post",
  path: "/organizations/{organizationPk}/groups/{groupPk}/group-chatbots/bulk-create/",
  tags: ["Roles and permissions"],
  summary: "Give assistants to a group",
  description:
    "Needs `group.manage`. The group's members with `chatbot.view` then see these assistants. Every id " +
    "must be an assistant of the organization " +
    "that you can see (owners see all), else 400 and nothing is added. Assistants already in the group are " +
    "skipped; the response lists the links created.",
  request: { params: GroupPkParams, ...jsonBody(BulkCreateGroupChatbots) },
  responses: { 201: json(z.array(GroupChatbotSchema), "Created group assistants"), ...errorResponses(400, 403, 404) },
});

export const registerBulkCreateGroupChatbots = (r: Router) =>
  r.openapi(route, async (c) => {
    const { organizationPk, groupPk } = c.req.valid("param");
    const { access, group } = await groupWith(c, organizationPk, groupPk, "group.manage");
    const created = await addGroupChatbots(
      c.var.db,
      access,
      c.var.principal.userId,
      group,
      c.req.valid("json").chatbots,
    );
    return c.json(created, 201);
  });
