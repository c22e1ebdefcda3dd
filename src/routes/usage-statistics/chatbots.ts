import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { pageParams, pageResponse } from "../../lib/pagination";
import { chatbotUsagePage, checkSort, usageTimeSeries } from "../../services/statistics/usage";
import { usageRangeOf } from "./range";
import { ChatbotUsageAnswer, OrganizationParams, USAGE_TAG, UsageListQuery } from "./schema";

const route = createRoute({
  method: "get",
  path: "/organizations/{organizationPk}/usage-statistics/chatbots/",
  tags: [USAGE_TAG],
  summary: "Usage per assistant: conversations, messages, words and tokens",
  description:
    "Needs `statistics.view`. An assistant's usage is all its traffic (visitors, widgets and members), " +
    "between `startDate` and " +
    "`endDate` (local days in `timezone`), optionally of one assistant (`chatbot`). Every assistant of the " +
    "organization is listed, with zeros when idle; `search` matches its id or name. " +
    "With `includeTime=true` the answer is only the time series by `timeGranularity` (a plain array, not paginated).",
  request: { params: OrganizationParams, query: UsageListQuery },
  responses: {
    200: json(ChatbotUsageAnswer, "A page of assistants with their usage, or the time series"),
    ...errorResponses(400, 403, 404),
  },
});

export const registerChatbotUsage = (r: Router) =>
  r.openapi(route, async (c) => {
    const q = c.req.valid("query");
    checkSort("chatbots", q.sortBy);
    const range = await usageRangeOf(c, c.req.valid("param").organizationPk, q);
    if (q.includeTime === "true") return c.json(await usageTimeSeries(c.var.db, "chatbots", range), 200);
    const p = pageParams(q);
    const order = { by: q.sortBy, descending: q.sortOrder === "desc" };
    const page = await chatbotUsagePage(c.var.db, range, order, p);
    return c.json(pageResponse(c, p, page.count, page.items), 200);
  });
