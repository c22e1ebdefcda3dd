import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { cursorPageOf, cursorResponse } from "../../lib/pagination";
import { authorize } from "../../services/access";
import { listConversations } from "../../services/conversation/list";
import { ConversationListQuery } from "../../services/conversation/list-query";
import { dataParts } from "../../services/shards/parts";
import { ConversationSchema } from "../../services/records/conversations";

const route = createRoute({
  method: "get",
  path: "/conversations/",
  tags: ["Conversations"],
  summary: "List the organization's conversations, newest first",
  description:
    "Needs `conversation.view`. Cursor pagination. Every filter is optional and they combine. " +
    "`view=waiting` sorts by `waitingSince`, oldest first. An `inbox` or `label` that is not your " +
    "organization's (or no longer is: a deleted label) is a 404.",
  request: { query: ConversationListQuery },
  responses: {
    200: json(cursorPageOf(ConversationSchema, "ConversationPage"), "Conversations"),
    ...errorResponses(400, 403, 404),
  },
});

export const registerListConversations = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "conversation.view");
    const q = c.req.valid("query");
    const parts = await dataParts(c.env, access.organizationId);
    const page = await listConversations(c.env, c.var.db, parts, access.organizationId, c.var.principal.userId, q);
    return c.json(cursorResponse(c, page.cursor, q.pageSize, page.rows, page.key), 200);
  });
