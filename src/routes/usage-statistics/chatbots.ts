import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { pageParams, pageResponse } from "../../lib/pagination";
import { usageByEntity, usageCounts, usageSeries } from "../../services/statistics/organization";
import { bucketRows, checkSort, usageContext } from "./usage";
import { ChatbotUsageAnswer, OrganizationParams, USAGE_TAG, UsageListQuery } from "./schema";

const route = createRoute({
  method: "get",
  path: "/organizations/{organizationPk}/usage-statistics/chatbots/",
  tags: [USAGE_TAG],
  summary: "Usage per assistant: conversations, messages, words and tokens",
  description:
    "Needs `statistics.view`. An assistant's usage is all its traffic (visitors, widgets and members), between `startDate` and " +
    "`endDate` (local days in `timezone`), optionally of one assistant (`chatbot`). Every assistant of the organization is listed, with zeros when idle; `search` matches its id or name. " +
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
    const ctx = await usageContext(c, c.req.valid("param").organizationPk, q);
    if (q.includeTime === "true")
      return c.json(bucketRows((await usageSeries(c.env.DB, "chatbots", ctx.query, ctx.list())).results), 200);
    const p = pageParams(q);
    const { rows, count } = await usageByEntity(
      c.env.DB,
      "chatbots",
      ctx.query,
      q.sortBy,
      q.sortOrder === "desc",
      p.limit,
      p.offset,
    );
    const results = rows.map((r) => ({ id: r.id, name: r.name, ...usageCounts(r) }));
    return c.json(pageResponse(c, p, count, results), 200);
  });
