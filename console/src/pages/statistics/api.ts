import { api, unwrap, type Schemas } from "../../api/client";
import type { paths } from "../../api/schema";
import { locale } from "../../i18n";

export type UsageBucket = Schemas["UsageBucket"];
export type UsageCounts = Schemas["UsageCounts"];
export type ChatbotUsage = Schemas["ChatbotUsage"];
export type MemberUsage = Schemas["MemberUsage"];
// From the list's answer: the generated ChatbotRecord schema types its nullable `contact` oddly.
type RecordPage =
  paths["/api/v1/chatbots/{chatbotPk}/records/"]["get"]["responses"][200]["content"]["application/json"];
export type ChatbotRecord = RecordPage["results"][number];

/** What the page shows: a range of local days (in `timezone`, the browser's) and an assistant, or the whole
 * organization. */
export interface Range {
  startDate: string;
  endDate: string;
  timezone: string;
}

const formatters = new Map<string, Intl.NumberFormat>();
/** A count as the chosen language writes it (1,234); one formatter per language (making one costs more than using it).
 * */
export function formatCount(n: number): string {
  let f = formatters.get(locale.value);
  if (!f) formatters.set(locale.value, (f = new Intl.NumberFormat(locale.value)));
  return f.format(n);
}

export const TIMEZONE = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

/** YYYY-MM-DD of the local day `offset` days from today. */
export function localDay(offset = 0): string {
  const d = new Date();
  d.setDate(d.getDate() + offset);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

const COUNTS: (keyof UsageCounts)[] = [
  "conversationsCount",
  "messagesCount",
  "incomingMessagesCount",
  "outgoingMessagesCount",
  "repliesCount",
  "failedRepliesCount",
  "wordsCount",
  "requestsCount",
  "inputTokens",
  "outputTokens",
  "totalTokens",
];

/**
 * The series per day and the totals: the organization's from the assistants' usage summary, one
 * assistant's from its usage time series (`includeTime`), summed here (its buckets cover the range).
 */
export async function loadSeries(
  organizationPk: string,
  range: Range,
  chatbot: string,
): Promise<{ results: UsageBucket[]; total: UsageCounts }> {
  const base = {
    startDate: range.startDate,
    endDate: range.endDate,
    timezone: range.timezone,
    timeGranularity: "day" as const,
  };
  if (!chatbot) {
    const summary = await unwrap(
      api.GET("/api/v1/organizations/{organizationPk}/usage-statistics/chatbots/summary/", {
        params: { path: { organizationPk }, query: base },
      }),
    );
    return { results: summary.results, total: summary.total };
  }
  const answer = await unwrap(
    api.GET("/api/v1/organizations/{organizationPk}/usage-statistics/chatbots/", {
      params: { path: { organizationPk }, query: { ...base, chatbot, includeTime: "true" } },
    }),
  );
  const results = Array.isArray(answer) ? answer : [];
  const total = Object.fromEntries(COUNTS.map((k) => [k, results.reduce((n, b) => n + b[k], 0)])) as UsageCounts;
  return { results, total };
}

/** Every assistant the member can see (names for the filter), up to 100. */
export const loadAssistants = () =>
  unwrap(api.GET("/api/v1/chatbots/", { params: { query: { pageSize: 100 } } })).then((p) => p.results);
