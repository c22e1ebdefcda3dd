import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { pageParams, pageResponse } from "../../lib/pagination";
import { memberUsagePage, usageTimeSeries } from "../../services/statistics/usage";
import { usageRangeOf } from "./range";
import { MemberUsageAnswer, OrganizationParams, USAGE_TAG, UsageListQuery } from "./schema";

const route = createRoute({
  method: "get",
  path: "/organizations/{organizationPk}/usage-statistics/members/",
  tags: [USAGE_TAG],
  summary: "Usage per member: conversations, messages, words and tokens",
  description:
    "Needs `statistics.view`. A member's usage is the traffic of the conversations their API key started, " +
    "between `startDate` and " +
    "`endDate` (local days in `timezone`), optionally of one assistant (`chatbot`). Every member is listed, " +
    "with zeros when idle. " +
    "With `includeTime=true` the answer is only the time series by `timeGranularity` (a plain array, not paginated).",
  request: { params: OrganizationParams, query: UsageListQuery },
  responses: {
    200: json(MemberUsageAnswer, "A page of members with their usage, or the time series"),
    ...errorResponses(400, 403, 404),
  },
});

export const registerMemberUsage = (r: Router) =>
  r.openapi(route, async (c) => {
    const q = c.req.valid("query");
    const range = await usageRangeOf(c, c.req.valid("param").organizationPk, q);
    if (q.includeTime === "true") return c.json(await usageTimeSeries(c.var.db, "members", range), 200);
    const p = pageParams(q);
    const order = { by: q.sortBy, descending: q.sortOrder === "desc" };
    const page = await memberUsagePage(c.var.db, range, order, p);
    return c.json(pageResponse(c, p, page.count, page.items), 200);
  });
