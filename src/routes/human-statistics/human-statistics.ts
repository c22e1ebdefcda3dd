import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { figuresOf } from "./figures";
import { HumanStatisticsSchema } from "../../services/records/human-statistics";
import { HUMAN_STATISTICS_TAG, HumanStatisticsQuery, OrganizationParams } from "./schema";

const route = createRoute({
  method: "get",
  path: "/organizations/{organizationPk}/human-statistics/",
  tags: [HUMAN_STATISTICS_TAG],
  summary: "Figures of the human side: handoffs, waiting, first response, resolution and satisfaction",
  description:
    "Needs `statistics.view`. Counts the stretches with people (from a handoff or an operator's takeover to " +
    "resolution or hand-back) " +
    "queued between `startDate` and `endDate` (local days in `timezone`), in total and per `groupBy`: medians " +
    "and 90th percentiles " +
    "in seconds, and the satisfaction ratings of their conversations. Filters: `inbox`, `chatbot`, `label`; " +
    "test conversations are " +
    "left out unless `includeTests=true`.",
  request: { params: OrganizationParams, query: HumanStatisticsQuery },
  responses: {
    200: json(HumanStatisticsSchema, "The figures in total and per group"),
    ...errorResponses(400, 403, 404),
  },
});

export const registerHumanStatistics = (r: Router) =>
  r.openapi(route, async (c) => {
    const q = c.req.valid("query");
    const { ctx, total, results } = await figuresOf(c, c.req.valid("param").organizationPk, q);
    return c.json(
      { startDate: ctx.startDate, endDate: ctx.endDate, timezone: ctx.timezone, groupBy: q.groupBy, total, results },
      200,
    );
  });
