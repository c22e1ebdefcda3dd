import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { usageSummary } from "./usage";
import { ChatbotsSummarySchema, OrganizationParams, USAGE_TAG, UsageSummaryQuery } from "./schema";

const route = createRoute({
  method: "get",
  path: "/organizations/{organizationPk}/usage-statistics/chatbots/summary/",
  tags: [USAGE_TAG],
  summary: "Assistants' usage in total and over time, with the organization's quantities",
  description:
    "Needs `statistics.view`. Totals and the time series of all assistants' traffic between `startDate` and `endDate`, how many " +
    "assistants there are and how many were used, and the organization's usage statistics (assistants, monthly words, upload bytes) and plan.",
  request: { params: OrganizationParams, query: UsageSummaryQuery },
  responses: { 200: json(ChatbotsSummarySchema, "The summary"), ...errorResponses(400, 403, 404) },
});

export const registerChatbotsUsageSummary = (r: Router) =>
  r.openapi(route, async (c) => {
    const { count, active, ...summary } = await usageSummary(
      c,
      "chatbots",
      c.req.valid("param").organizationPk,
      c.req.valid("query"),
    );
    return c.json({ ...summary, chatbotsCount: count, activeChatbotsCount: active }, 200);
  });
