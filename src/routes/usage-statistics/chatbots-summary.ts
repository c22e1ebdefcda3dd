import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { orgAccess, requirePermission } from "../../services/access";
import { planSettings } from "../../services/plans";
import { usageRange, usageSummary } from "../../services/statistics/usage";
import { ChatbotsSummarySchema } from "../../services/records/usage-statistics";
import { OrganizationParams, USAGE_TAG, UsageSummaryQuery } from "./schema";

const route = createRoute({
  method: "get",
  path: "/organizations/{organizationPk}/usage-statistics/chatbots/summary/",
  tags: [USAGE_TAG],
  summary: "Assistants' usage in total and over time, with the organization's quantities",
  description:
    "Needs `statistics.view`. Totals and the time series of all assistants' traffic between `startDate` and " +
    "`endDate`, how many " +
    "assistants there are and how many were used, and the organization's usage statistics (assistants, " +
    "monthly words, upload bytes) and plan.",
  request: { params: OrganizationParams, query: UsageSummaryQuery },
  responses: { 200: json(ChatbotsSummarySchema, "The summary"), ...errorResponses(400, 403, 404) },
});

export const registerChatbotsUsageSummary = (r: Router) =>
  r.openapi(route, async (c) => {
    const q = c.req.valid("query");
    const access = await orgAccess(c, c.req.valid("param").organizationPk);
    requirePermission(access, "statistics.view");
    const range = await usageRange(c.env.DB, access.organizationId, q, c.executionCtx);
    const plans = planSettings(c.env);
    const { count, active, ...summary } = await usageSummary(
      c.env.DB,
      c.var.db,
      plans,
      "chatbots",
      range,
      q.timeGranularity,
    );
    return c.json({ ...summary, chatbotsCount: count, activeChatbotsCount: active }, 200);
  });
