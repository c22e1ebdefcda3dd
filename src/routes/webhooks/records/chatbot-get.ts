import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../../lib/openapi";
import { errorResponses, json } from "../../../lib/openapi";
import { dataParts } from "../../../services/shards/parts";
import { authorize } from "../../../services/access";
import { getChatbotForRead } from "../../../services/chatbots/visibility";
import { getDelivery } from "../../../services/webhooks/config";
import { WEBHOOKS_TAG } from "../schema";
import { deliveryRecord, WebhookDeliverySchema } from "../../../services/records/webhook-deliveries";
import { ChatbotRecordParams } from "./schema";

const route = createRoute({
  method: "get",
  path: "/chatbots/{chatbotPk}/webhook-records/{recordId}/",
  tags: [WEBHOOKS_TAG],
  summary: "Get a delivery record of an assistant's message",
  description: "Needs `webhook.manage` and access to the assistant.",
  request: { params: ChatbotRecordParams },
  responses: { 200: json(WebhookDeliverySchema, "The delivery record"), ...errorResponses(403, 404) },
});

export const registerGetChatbotWebhookRecord = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "webhook.manage");
    const { chatbotPk, recordId } = c.req.valid("param");
    const chatbot = await getChatbotForRead(c.var.db, access, c.var.principal.userId, chatbotPk);
    const scope = { chatbotId: chatbot.id };
    const record = await getDelivery(
      c.env,
      c.var.db,
      await dataParts(c.env, access.organizationId),
      access.organizationId,
      recordId,
      scope,
    );
    return c.json(deliveryRecord(record), 200);
  });
