import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses } from "../../lib/openapi";
import { xlsxDownload, xlsxResponse } from "../../lib/xlsx";
import { humanStatisticsSheet } from "../../services/statistics/human-export";
import { figuresOf } from "./figures";
import { HUMAN_STATISTICS_TAG, HumanStatisticsQuery, OrganizationParams } from "./schema";

const route = createRoute({
  method: "get",
  path: "/organizations/{organizationPk}/human-statistics/export-excel/",
  tags: [HUMAN_STATISTICS_TAG],
  summary: "Download the figures of the human side as a spreadsheet (.xlsx)",
  description:
    "Needs `statistics.view`. The figures of `GET /human-statistics/` with the same query, one row per group " +
    "and a last row " +
    "`Total`: Group, Id, Handoffs, Resolved, then median and 90th percentile in seconds of the waiting, first " +
    "response and " +
    "resolution times, CSAT ratings, CSAT average, and the count of each rating 1-5.",
  request: { params: OrganizationParams, query: HumanStatisticsQuery },
  responses: {
    200: xlsxResponse("The spreadsheet, as an attachment `human-statistics-<groupBy>-<startDate>-<endDate>.xlsx`"),
    ...errorResponses(400, 403, 404),
  },
});

export const registerExportHumanStatistics = (r: Router) =>
  r.openapi(route, async (c) => {
    const q = c.req.valid("query");
    const { ctx, ...figures } = await figuresOf(c, c.req.valid("param").organizationPk, q);
    const { header, rows } = humanStatisticsSheet(q.groupBy, figures);
    const filename = `human-statistics-${q.groupBy}-${ctx.startDate}-${ctx.endDate}.xlsx`;
    return xlsxDownload(header, rows, filename, "Human handoff");
  });
