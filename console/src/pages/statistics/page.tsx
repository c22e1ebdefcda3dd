import { useMemo, useState } from "preact/hooks";
import { ErrorAlert, Loading, Button, SelectField, TextField, PageHeader, useResource } from "../../components";
import { locale } from "../../i18n";
import { can } from "../../shell/session";
import type { PageProps } from "../types";
import { Chart } from "./chart";
import { ConversationSection } from "./conversation-section";
import { HumanSection } from "./human-section";
import { RecordsSection } from "./records-section";
import {
  TIMEZONE,
  formatCount,
  loadAssistants,
  loadSeries,
  localDay,
  type Range,
  type UsageBucket,
  type UsageCounts,
} from "./api";
import { t } from "./strings";
import { UsageSection } from "./usage-section";

/**
 * Statistics of a range of days, for the organization or one assistant: totals, charts per day
 * (conversations, messages, tokens, failed replies), usage per assistant and per member, and the
 * questions and answers with their export.
 */
export default function StatisticsPage({ organizationId }: PageProps) {
  const [range, setRange] = useState<Range>({ startDate: localDay(-29), endDate: localDay(0), timezone: TIMEZONE });
  const [chatbot, setChatbot] = useState("");
  const [rangeError, setRangeError] = useState<string | undefined>();
  const assistants = useResource(loadAssistants, [organizationId]);
  const series = useResource(() => loadSeries(organizationId, range, chatbot), [organizationId, range, chatbot]);

  const apply = (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const startDate = String(form.get("startDate") ?? "");
    const endDate = String(form.get("endDate") ?? "");
    if (!startDate || !endDate || endDate < startDate) return setRangeError(t("badRange"));
    setRangeError(undefined);
    setRange({ startDate, endDate, timezone: TIMEZONE });
    setChatbot(String(form.get("chatbot") ?? ""));
  };
  const name = assistants.data?.find((a) => a.id === chatbot)?.name;

  return (
    <>
      <PageHeader title={t("title")} />
      <section aria-labelledby="stats-filters" class="section">
        <h2 id="stats-filters" class="sr-only">
          {t("filters")}
        </h2>
        <form class="filters" onSubmit={apply}>
          <TextField label={t("from")} name="startDate" type="date" required defaultValue={range.startDate} />
          <TextField
            label={t("to")}
            name="endDate"
            type="date"
            required
            defaultValue={range.endDate}
            error={rangeError}
          />
          <SelectField
            label={t("assistant")}
            name="chatbot"
            defaultValue={chatbot}
            options={[
              ["", t("allAssistants")],
              ...(assistants.data ?? []).map((a): [string, string] => [a.id, a.name]),
            ]}
          />
          <Button type="submit" variant="primary">
            {t("apply")}
          </Button>
        </form>
        <p class="muted small">{t("daysIn", { timezone: range.timezone })}</p>
      </section>
      <ErrorAlert error={series.error ?? assistants.error} />
      {series.data === undefined ? (
        series.loading && <Loading />
      ) : (
        <Overview
          title={name ? t("perDayOf", { name }) : t("perDay")}
          results={series.data.results}
          total={series.data.total}
        />
      )}
      {/* The charts first: the tables below ask only once the series answered, so they do not compete with it. */}
      {(series.data || series.error) && (
        <>
          {chatbot && <ConversationSection chatbot={chatbot} range={range} />}
          <UsageSection
            key={`${range.startDate}|${range.endDate}|${chatbot}`}
            organizationId={organizationId}
            range={range}
            chatbot={chatbot}
          />
          <HumanSection organizationId={organizationId} range={range} chatbot={chatbot} />
          {can("conversation.view") && <RecordsSection range={range} chatbot={chatbot} assistants={assistants.data} />}
        </>
      )}
    </>
  );
}

const METRICS: { key: keyof UsageCounts; label: () => string }[] = [
  { key: "conversationsCount", label: () => t("conversations") },
  { key: "messagesCount", label: () => t("messages") },
  { key: "totalTokens", label: () => t("tokens") },
  { key: "failedRepliesCount", label: () => t("failedReplies") },
];

/** The totals of the range, then one chart per measure, each with its table. */
function Overview({ title, results, total }: { title: string; results: UsageBucket[]; total: UsageCounts }) {
  const starts = useMemo(() => results.map((b) => Number(b.startAt)), [results]);
  const labels = useMemo(() => results.map((b) => b.time), [results]);
  const series = useMemo(
    () => METRICS.map((m) => [{ label: m.label(), values: results.map((b) => b[m.key]) }]),
    [results, locale.value],
  );
  // A User Timing mark once all four are drawn (for bench/console/statistics.mjs).
  const drawn = useMemo(() => {
    let left = METRICS.length;
    return () => --left === 0 && performance.mark("statistics:charts-drawn");
  }, [results]);
  return (
    <section aria-labelledby="stats-overview" class="section">
      <h2 id="stats-overview">{title}</h2>
      <dl class="totals" aria-label={t("totals")}>
        {METRICS.map((m) => (
          <div key={m.key} class="total">
            <dt>{m.label()}</dt>
            <dd>{formatCount(total[m.key])}</dd>
          </div>
        ))}
      </dl>
      <div class="charts">
        {METRICS.map((m, i) => (
          <Chart
            key={m.key}
            title={m.label()}
            starts={starts}
            labels={labels}
            series={series[i]}
            format={formatCount}
            onDrawn={drawn}
          />
        ))}
      </div>
    </section>
  );
}
