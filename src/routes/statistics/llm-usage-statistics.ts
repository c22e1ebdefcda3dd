import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { chatbotWith } from "./access";
import { dataParts } from "../../services/shards/parts";
import { llmUsageFigures } from "../../services/statistics/chatbot-figures";
import { ChatbotParams, LlmUsageQuery, LlmUsageSchema, STATISTICS_TAG } from "./schema";

const route = createRoute({
  method: "get",
  path: "/chatbots/{chatbotPk}/llm-usage-statistics/",
  tags: [STATISTICS_TAG],
  summary: "Language-model usage of an assistant: tokens, requests and words per day or month, per model",
  description:
    "Needs `statistics.view` and access to the assistant. `startDate` to `endDate` (both included, local days " +
    "in `timezone`). " +
    "400 for a missing or malformed date, an `endDate` before `startDate` or a granularity other than day or month. " +
    "Test conversations (`isTest`) are left out unless `includeTests=true`; the organization's usage " +
    "statistics count them (their words and tokens were spent).",
  request: { params: ChatbotParams, query: LlmUsageQuery },
  responses: {
    200: json(LlmUsageSchema, "Usage per bucket and model, and in total"),
    ...errorResponses(400, 403, 404),
  },
});

export const registerLlmUsageStatistics = (r: Router) =>
  r.openapi(route, async (c) => {
    const { access, chatbot } = await chatbotWith(c, c.req.valid("param").chatbotPk, "statistics.view");
    const parts = await dataParts(c.env, access.organizationId);
    return c.json(await llmUsageFigures(c.var.db, parts, chatbot, c.req.valid("query")), 200);
  });
