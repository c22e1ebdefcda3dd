import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { pageOf, pageParams, pageResponse } from "../../lib/pagination";
import { currentAccess } from "../../services/access";
import { chatbotViews } from "../../services/chatbots/views";
import { listVisibleChatbots } from "../../services/chatbots/visibility";
import { chatbotRecord, ChatbotSchema } from "../../services/records/chatbots";
import { dataParts } from "../../services/shards/parts";
import { CHATBOTS_TAG, ChatbotListQuery } from "./schema";

const route = createRoute({
  method: "get",
  path: "/chatbots/",
  tags: [CHATBOTS_TAG],
  summary: "List the assistants you can see",
  description:
    "Newest first: the current organization's assistants visible to you (all of them for owners; for other " +
    "members those they created and, " +
    "with `chatbot.view`, those given to one of their groups) and your personal assistants.",
  request: { query: ChatbotListQuery },
  responses: {
    200: json(pageOf(ChatbotSchema, "AssistantPage"), "Page of assistants"),
    ...errorResponses(400, 403, 404),
  },
});

export const registerListChatbots = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await currentAccess(c);
    const q = c.req.valid("query");
    const p = pageParams(q);
    const page = await listVisibleChatbots(c.var.db, access, c.var.principal.userId, q, p);
    const views = await chatbotViews(
      c.var.db,
      await dataParts(c.env, access.organizationId),
      access,
      c.var.principal.userId,
      page.items,
    );
    return c.json(pageResponse(c, p, page.count, views.map(chatbotRecord)), 200);
  });
