import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, noContent } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { deleteChatbot } from "../../services/chatbots/store";
import { getChatbotForRead } from "../../services/chatbots/visibility";
import { CHATBOTS_TAG } from "./schema";

const route = createRoute({
  method: "delete",
  path: "/chatbots/{id}/",
  tags: [CHATBOTS_TAG],
  summary: "Delete an assistant",
  description:
    "Needs `chatbot.manage` and an assistant you can see. Its default inbox and that inbox's conversations go " +
    "with it; " +
    "its other inboxes stay, without an assistant.",
  request: { params: IdParams },
  responses: { 204: noContent, ...errorResponses(403, 404) },
});

export const registerDeleteChatbot = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "chatbot.manage");
    const row = await getChatbotForRead(c.var.db, access, c.var.principal.userId, c.req.valid("param").id);
    await deleteChatbot(c.env, c.var.db, row);
    return c.body(null, 204);
  });
