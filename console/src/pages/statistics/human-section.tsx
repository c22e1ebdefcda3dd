import { useMemo, useState } from "preact/hooks";
import type { Schemas } from "../../api/client";
import {
  ErrorAlert,
  Loading,
  Button,
  DataTable,
  type Column,
  SelectField,
  useResource,
  SectionHead,
} from "../../components";
import { locale } from "../../i18n";
import { Chart } from "./chart";
import { th } from "./human-strings";
import { exportHumanStatistics, formatCount, humanStatistics, type SectionProps, useDownload } from "./api";

type Group = Schemas["HumanGroupFigures"];
type Figures = Schemas["HumanFigures"];
type GroupBy = "agent" | "team" | "assistant";

const NONE: Record<GroupBy, "unassigned" | "noTeam" | "noAssistant"> = {
  agent: "unassigned",
  team: "noTeam",
  assistant: "noAssistant",
};
const GROUP_LABELS: Record<GroupBy, "byAgent" | "byTeam" | "byAssistant"> = {
  agent: "byAgent",
  team: "byTeam",
  assistant: "byAssistant",
};

/** Seconds as a person reads a wait: "45 s", "3 min 20 s", "2 h 5 min"; a dash for none. */
export function formatDuration(seconds: number | null): string {
  if (seconds === null) return "—";
  const s = Math.round(seconds);
  if (s < 60) return th("seconds", { n: s });
  if (s < 3600) return `${th("minutes", { n: Math.floor(s / 60) })}${s % 60 ? ` ${th("seconds", { n: s % 60 })}` : ""}`;
  const minutes = Math.round((s % 3600) / 60);
  return `${th("hours", { n: Math.floor(s / 3600) })}${minutes ? ` ${th("minutes", { n: minutes })}` : ""}`;
}

const csatText = (f: Figures) =>
  f.csat.average === null
    ? "—"
    : th("csatOf", { average: f.csat.average.toFixed(2), count: formatCount(f.csat.count) });

/**
 * The human side of the range (GET /human-statistics/): totals, handoffs and the median first
 * response per day, the figures per agent, team or assistant, and the same figures as a spreadsheet.
 */
export function HumanSection({ organizationId, range, chatbot }: SectionProps) {
  const [groupBy, setGroupBy] = useState<GroupBy>("agent");
  const base = { ...range, chatbot: chatbot || undefined };
  const days = useResource(
    () => humanStatistics(organizationId, { ...base, groupBy: "day" }),
    [organizationId, range, chatbot],
  );
  const groups = useResource(
    () => humanStatistics(organizationId, { ...base, groupBy }),
    [organizationId, range, chatbot, groupBy],
  );
  const { exporting, exportError, download } = useDownload(
    () => exportHumanStatistics(organizationId, { ...base, groupBy }),
    th("exported"),
  );

  const perDay = days.data?.results;
  // The x axis both charts share: each day's start and its label.
  const axis = useMemo(
    () => ({
      starts: (perDay ?? []).map((d) => Date.parse(`${d.key}T00:00:00`)),
      labels: (perDay ?? []).map((d) => d.key ?? ""),
    }),
    [perDay],
  );
  const handoffSeries = useMemo(
    () => [{ label: th("handoffs"), values: (perDay ?? []).map((d) => d.handoffsCount) }],
    [perDay, locale.value],
  );
  const responseSeries = useMemo(
    () => [{ label: th("medianFirstResponse"), values: (perDay ?? []).map((d) => d.firstResponseTime.median) }],
    [perDay, locale.value],
  );

  const columns: Column<Group>[] = [
    {
      label: th(GROUP_LABELS[groupBy]),
      rowHeader: true,
      cell: (g) => g.name ?? (g.key === null ? th(NONE[groupBy]) : th("deleted")),
    },
    { label: th("handoffs"), class: "num", cell: (g) => formatCount(g.handoffsCount) },
    { label: th("resolved"), class: "num", cell: (g) => formatCount(g.resolvedCount) },
    { label: th("medianWaiting"), class: "num", cell: (g) => formatDuration(g.waitingTime.median) },
    { label: th("medianFirstResponse"), class: "num", cell: (g) => formatDuration(g.firstResponseTime.median) },
    { label: th("medianResolution"), class: "num", cell: (g) => formatDuration(g.resolutionTime.median) },
    { label: th("csatAverage"), class: "num", cell: csatText },
  ];
  const total = days.data?.total;
  return (
    <section aria-labelledby="stats-human" class="section" data-section="human">
      <SectionHead id="stats-human" title={th("human")}>
        <Button onClick={download} busy={exporting} aria-label={th("exportHumanLabel")}>
          {th("exportHuman")}
        </Button>
      </SectionHead>
      <p class="muted">{th("humanIntro")}</p>
      <ErrorAlert error={days.error ?? groups.error ?? exportError} />
      {total === undefined ? (
        days.loading && <Loading />
      ) : (
        <>
          <dl class="totals" aria-label={th("humanTotals")}>
            <Total label={th("handoffs")} value={formatCount(total.handoffsCount)} />
            <Total label={th("resolved")} value={formatCount(total.resolvedCount)} />
            <Total label={th("medianWaiting")} value={formatDuration(total.waitingTime.median)} />
            <Total label={th("medianFirstResponse")} value={formatDuration(total.firstResponseTime.median)} />
            <Total label={th("p90FirstResponse")} value={formatDuration(total.firstResponseTime.p90)} />
            <Total label={th("medianResolution")} value={formatDuration(total.resolutionTime.median)} />
            <Total
              label={th("csatAverage")}
              value={total.csat.average === null ? "—" : total.csat.average.toFixed(2)}
            />
          </dl>
          <div class="charts">
            <Chart title={th("handoffsPerDay")} {...axis} series={handoffSeries} format={formatCount} />
            <Chart title={th("firstResponsePerDay")} {...axis} series={responseSeries} format={formatDuration} />
          </div>
        </>
      )}
      <div class="filters">
        <SelectField
          label={th("groupBy")}
          value={groupBy}
          onChange={(e) => setGroupBy(e.currentTarget.value as GroupBy)}
          options={(["agent", "team", "assistant"] as const).map((g): [string, string] => [g, th(GROUP_LABELS[g])])}
        />
      </div>
      {groups.data === undefined ? (
        groups.loading && <Loading />
      ) : groups.data.results.length === 0 ? (
        <p>{th("noHandoffs")}</p>
      ) : (
        <DataTable labelledBy="stats-human" rows={groups.data.results} rowKey={(g) => g.key ?? ""} columns={columns} />
      )}
    </section>
  );
}

function Total({ label, value }: { label: string; value: string }) {
  return (
    <div class="total">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}
