import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { chatbotView } from "../../services/chatbots/views";
import { getChatbotForRead } from "../../services/chatbots/visibility";
import { updateChatbot } from "../../services/chatbots/store";
import { chatbotRecord, ChatbotSchema } from "../../services/records/chatbots";
import { dataParts } from "../../services/shards/parts";
import { CHATBOTS_TAG, EnableEvaluationBody } from "./schema";

const route = createRoute({
  method: "patch",
  path: "/chatbots/{id}/enable-evaluation/",
  tags: [CHATBOTS_TAG],
  summary: "Switch evaluation of an assistant's replies on or off",
  description:
    "Needs `chatbot.manage`. `enableEvaluation` absent (or no body at all) switches it on; it is not a toggle.",
  request: {
    params: IdParams,
    body: { required: false, content: { "application/json": { schema: EnableEvaluationBody } } },
  },
  responses: { 200: json(ChatbotSchema, "The updated assistant"), ...errorResponses(400, 403, 404) },
});

export const registerEnableEvaluation = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "chatbot.manage");
    const current = await getChatbotForRead(c.var.db, access, c.var.principal.userId, c.req.valid("param").id);
    const row = await updateChatbot(c.var.db, current.id, {
      enableEvaluation: c.req.valid("json").enableEvaluation ?? true,
    });
    return c.json(
      chatbotRecord(
        await chatbotView(c.var.db, await dataParts(c.env, access.organizationId), access, c.var.principal.userId, row),
      ),
      200,
    );
  });
