import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses } from "../../lib/openapi";
import { xlsxDownload, xlsxResponse } from "../../lib/xlsx";
import type { Durations, HumanFigures } from "../../services/records/human-statistics";
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

const GROUP_TITLES = { agent: "Agent", team: "Team", assistant: "Assistant", day: "Day" } as const;

const seconds = (v: number | null) => (v === null ? null : { value: v, type: Number, format: "0.0" });
const duration = (d: Durations) => [seconds(d.median), seconds(d.p90)];
const cells = (f: HumanFigures) => [
  f.handoffsCount,
  f.resolvedCount,
  ...duration(f.waitingTime),
  ...duration(f.firstResponseTime),
  ...duration(f.resolutionTime),
  f.csat.count,
  f.csat.average === null ? null : { value: f.csat.average, type: Number, format: "0.00" },
  ...(["1", "2", "3", "4", "5"] as const).map((n) => f.csat.distribution[n]),
];

export const registerExportHumanStatistics = (r: Router) =>
  r.openapi(route, async (c) => {
    const q = c.req.valid("query");
    const { ctx, total, results } = await figuresOf(c, c.req.valid("param").organizationPk, q);
    const header = [
      GROUP_TITLES[q.groupBy],
      "Id",
      "Handoffs",
      "Resolved",
      "Waiting median (s)",
      "Waiting p90 (s)",
      "First response median (s)",
      "First response p90 (s)",
      "Resolution median (s)",
      "Resolution p90 (s)",
      "CSAT ratings",
      "CSAT average",
      ...["1", "2", "3", "4", "5"].map((n) => `CSAT ${n}`),
    ];
    const data = [
      ...results.map((g) => [
        g.name ?? (g.key === null ? "(none)" : "(deleted)"),
        q.groupBy === "day" ? null : g.key,
        ...cells(g),
      ]),
      ["Total", null, ...cells(total)],
    ];
    return xlsxDownload(
      header,
      data,
      `human-statistics-${q.groupBy}-${ctx.startDate}-${ctx.endDate}.xlsx`,
      "Human handoff",
    );
  });
