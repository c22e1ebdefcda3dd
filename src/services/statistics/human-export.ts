// The human side's figures as a spreadsheet: the figures of `GET /human-statistics/`, one row per group and a last
// row `Total`.
import type { Row } from "write-excel-file/node";
import type { Durations, HumanFigures, HumanGroupFigures } from "../records/human-statistics";
import type { HumanGroup } from "./human";

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

/**
 * The figures as the spreadsheet's rows (`xlsxDownload`'s `header` and `rows`): the group (its name, or `(none)` /
 * `(deleted)`) and its id (none for days), the counts, median and 90th percentile in seconds of each time, CSAT.
 */
export function humanStatisticsSheet(
  groupBy: HumanGroup,
  { total, results }: { total: HumanFigures; results: HumanGroupFigures[] },
): { header: string[]; rows: Row[] } {
  const header = [
    GROUP_TITLES[groupBy],
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
  const rows = [
    ...results.map((g) => [
      g.name ?? (g.key === null ? "(none)" : "(deleted)"),
      groupBy === "day" ? null : g.key,
      ...cells(g),
    ]),
    ["Total", null, ...cells(total)],
  ];
  return { header, rows };
}
