import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { groupRecord } from "../../services/groups";
import { GroupSchema } from "../../services/records/groups";
import { groupWith } from "./access";
import { GroupParams } from "./schema";

const route = createRoute({
  method: "get",
  path: "/organizations/{organizationPk}/groups/{id}/",
  tags: ["Roles and permissions"],
  summary: "Get a group",
  description: "Needs `group.view`.",
  request: { params: GroupParams },
  responses: { 200: json(GroupSchema, "The group"), ...errorResponses(403, 404) },
});

export const registerGetGroup = (r: Router) =>
  r.openapi(route, async (c) => {
    const { organizationPk, id } = c.req.valid("param");
    const { group } = await groupWith(c, organizationPk, id, "group.view");
    return c.json(await groupRecord(c.var.db, group), 200);
  });
