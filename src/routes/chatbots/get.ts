import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json } from "../../lib/openapi";
import { currentAccess } from "../../services/access";
import { chatbotView } from "../../services/chatbots/views";
import { getChatbotForRead } from "../../services/chatbots/visibility";
import { chatbotRecord, ChatbotSchema } from "../../services/records/chatbots";
import { dataParts } from "../../services/shards/parts";
import { CHATBOTS_TAG } from "./schema";

const route = createRoute({
  method: "get",
  path: "/chatbots/{id}/",
  tags: [CHATBOTS_TAG],
  summary: "Get an assistant",
  description:
    "Owners see every assistant of the organization; other members those they created and, with " +
    "`chatbot.view`, those given to one of their groups. " +
    "Personal assistants are visible to their creator only. Anything else is a 404.",
  request: { params: IdParams },
  responses: { 200: json(ChatbotSchema, "The assistant"), ...errorResponses(403, 404) },
});

export const registerGetChatbot = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await currentAccess(c);
    const row = await getChatbotForRead(c.var.db, access, c.var.principal.userId, c.req.valid("param").id);
    return c.json(
      chatbotRecord(
        await chatbotView(c.var.db, await dataParts(c.env, access.organizationId), access, c.var.principal.userId, row),
      ),
      200,
    );
  });
