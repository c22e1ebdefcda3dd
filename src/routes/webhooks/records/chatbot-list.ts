import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../../lib/openapi";
import { errorResponses, json } from "../../../lib/openapi";
import { pageParams, pageResponse } from "../../../lib/pagination";
import { authorize } from "../../../services/access";
import { getChatbotForRead } from "../../../services/chatbots/visibility";
import { listDeliveries } from "../../../services/webhooks/config";
import { WEBHOOKS_TAG } from "../schema";
import { ChatbotParams, ChatbotRecordQuery, RecordPage } from "./schema";

const route = createRoute({
  method: "get",
  path: "/chatbots/{chatbotPk}/webhook-records/",
  tags: [WEBHOOKS_TAG],
  summary: "List the delivery records of an assistant's messages",
  description:
    "Needs `webhook.manage` and access to the assistant. Records of every webhook that pushed messages of the " +
    "assistant's " +
    "conversations in the current organization, newest first; `webhook` narrows them to one. Dates are " +
    "inclusive days in UTC.",
  request: { params: ChatbotParams, query: ChatbotRecordQuery },
  responses: { 200: json(RecordPage, "Page of delivery records"), ...errorResponses(400, 403, 404) },
});

export const registerListChatbotWebhookRecords = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "webhook.manage");
    const chatbot = await getChatbotForRead(c.var.db, access, c.var.principal.userId, c.req.valid("param").chatbotPk);
    const q = c.req.valid("query");
    const p = pageParams(q);
    const scope = { chatbotId: chatbot.id };
    const page = await listDeliveries(c.env, c.var.db, access.organizationId, scope, q, p);
    return c.json(pageResponse(c, p, page.count, page.items), 200);
  });
