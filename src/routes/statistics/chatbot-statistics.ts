import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { chatbotWith } from "./access";
import { dataParts } from "../../services/shards/parts";
import { trafficFigures } from "../../services/statistics/chatbot-figures";
import { ChatbotParams, ChatbotStatisticsQuery, ChatbotStatisticsSchema, STATISTICS_TAG } from "./schema";

const route = createRoute({
  method: "get",
  path: "/chatbots/{chatbotPk}/statistics/",
  tags: [STATISTICS_TAG],
  summary: "Conversation statistics of an assistant, per hour, day or month",
  description:
    "Needs `statistics.view` and access to the assistant. Read from hourly counters kept as messages are stored; " +
    "buckets are local to `timezone` (default UTC). Defaults: the last 30 days (today included) by day. " +
    "`total` covers the whole range (its `contactsCount` counts each contact once). Test conversations " +
    "(`isTest`) are left out unless `includeTests=true`.",
  request: { params: ChatbotParams, query: ChatbotStatisticsQuery },
  responses: { 200: json(ChatbotStatisticsSchema, "Counts per bucket and in total"), ...errorResponses(400, 403, 404) },
});

export const registerChatbotStatistics = (r: Router) =>
  r.openapi(route, async (c) => {
    const { access, chatbot } = await chatbotWith(c, c.req.valid("param").chatbotPk, "statistics.view");
    const parts = await dataParts(c.env, access.organizationId);
    return c.json(await trafficFigures(parts, chatbot, c.req.valid("query")), 200);
  });
