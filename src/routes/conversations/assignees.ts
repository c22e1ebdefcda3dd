import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json } from "../../lib/openapi";
import { authorize, requireConversation } from "../../services/access";
import { assigneesOf, MAX_ASSIGNEES } from "../../services/assignment/assignees";
import { AssigneesSchema } from "../../services/records/assignees";

const route = createRoute({
  method: "get",
  path: "/conversations/{id}/assignees/",
  tags: ["Conversations"],
  summary: "Whom a conversation can be assigned to",
  description:
    "Needs `conversation.manage` (what `assign/` needs: an agent who may assign sees whom to, without " +
    "`member.view` or `group.view`). The organization's members who may serve conversations " +
    "(`conversation.manage`, as `assign/` requires of an assignee) by name, each with their availability and whether " +
    `they are in the conversation's team (at most ${MAX_ASSIGNEES}), and its teams (groups) by name.`,
  request: { params: IdParams },
  responses: { 200: json(AssigneesSchema, "Members and teams"), ...errorResponses(403, 404) },
});

export const registerConversationAssignees = (r: Router) =>
  r.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const access = await authorize(c, "conversation.manage");
    const view = await requireConversation(c, id);
    return c.json(await assigneesOf(c.var.db, access.organizationId, view.conversation.teamId), 200);
  });
