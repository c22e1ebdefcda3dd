import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json, jsonBody } from "../../lib/openapi";
import { authorize, requireConversation } from "../../services/access";
import { assignmentChange } from "../../services/assignment/manual";
import { changeConversation } from "./change";
import { ConversationSchema } from "../../services/records/conversations";

const EXAMPLE_ID = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d";

const Body = z
  .object({
    assigneeId: z
      .uuid()
      .nullable()
      .optional()
      .openapi({
        description:
          "User id of a member of the organization who may serve conversations (`conversation.manage`), and of the " +
          "team; null: unassigned; absent: kept",
        example: EXAMPLE_ID,
      }),
    teamId: z
      .uuid()
      .nullable()
      .optional()
      .openapi({
        description:
          "A group of the organization serving it; null: no team; absent: kept. Given alone, it releases an assignee " +
          "who is not in that team",
        example: EXAMPLE_ID,
      }),
  })
  .refine((b) => b.assigneeId !== undefined || b.teamId !== undefined, { message: "Give assigneeId, teamId or both." })
  .openapi("AssignConversation");

const route = createRoute({
  method: "post",
  path: "/conversations/{id}/assign/",
  tags: ["Conversations"],
  summary: "Assign a conversation to a member and/or a team",
  description:
    "Needs `conversation.manage`. Names who should serve the conversation; its state stays as it is (a " +
    "queued conversation " +
    "keeps waiting until the assignee answers or takes it over). The assignee must be a member of the " +
    "organization who may serve conversations (`conversation.manage`) and, when the " +
    "conversation has or gets a team, of that team (400). The live inbox gets `conversation.updated` with " +
    "`changes.assignee` and reason `operator`.",
  request: { params: IdParams, ...jsonBody(Body) },
  responses: { 200: json(ConversationSchema, "The conversation as assigned"), ...errorResponses(400, 403, 404) },
});

export const registerAssignConversation = (r: Router) =>
  r.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    await authorize(c, "conversation.manage");
    const view = await requireConversation(c, id);
    const change = await assignmentChange(c.var.db, view.conversation, c.req.valid("json"));
    return c.json(await changeConversation(c, id, () => change), 200);
  });
