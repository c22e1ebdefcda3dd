import { ApiProblem, api, unwrap, type QueryOf, type Schemas } from "../../api/client";
import { toast, useAction } from "../../components";
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

/** What a section of the organization's figures is given: the range and the chosen assistant ("" for all). */
export interface SectionProps {
  organizationId: string;
  range: Range;
  chatbot: string;
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

const HUMAN = "/api/v1/organizations/{organizationPk}/human-statistics/";
const RECORDS = "/api/v1/chatbots/{chatbotPk}/records/";
const CHATBOT_USAGE = "/api/v1/organizations/{organizationPk}/usage-statistics/chatbots/";
const MEMBER_USAGE = "/api/v1/organizations/{organizationPk}/usage-statistics/members/";

/** The human side's figures in the range, per day or per agent, team or assistant (`groupBy`). */
export const humanStatistics = (organizationPk: string, query: QueryOf<typeof HUMAN>) =>
  unwrap(api.GET(HUMAN, { params: { path: { organizationPk }, query } }));

/** An assistant's questions and answers, a page at a time. */
export const chatbotRecords = (chatbotPk: string, query: QueryOf<typeof RECORDS>) =>
  unwrap(api.GET(RECORDS, { params: { path: { chatbotPk }, query } }));

/** One assistant's conversation counts over a range. */
export const conversationStatistics = (chatbotPk: string, query: QueryOf<"/api/v1/chatbots/{chatbotPk}/statistics/">) =>
  unwrap(api.GET("/api/v1/chatbots/{chatbotPk}/statistics/", { params: { path: { chatbotPk }, query } }));

/** Usage per assistant in the range, a page at a time. */
export const chatbotUsage = (organizationPk: string, query: QueryOf<typeof CHATBOT_USAGE>) =>
  unwrap(api.GET(CHATBOT_USAGE, { params: { path: { organizationPk }, query } }));

/** Usage per member in the range, a page at a time. */
export const memberUsage = (organizationPk: string, query: QueryOf<typeof MEMBER_USAGE>) =>
  unwrap(api.GET(MEMBER_USAGE, { params: { path: { organizationPk }, query } }));

type Download = Promise<{ data?: unknown; error?: unknown; response: Response }>;

/** Saves a spreadsheet the API answers under the API's file name (else `fallback`); a refusal is an ApiProblem. */
async function save(request: Download, fallback: string) {
  const answer = await request;
  if (!answer.response.ok)
    throw new ApiProblem(
      answer.response.status,
      (answer.error as { detail?: string })?.detail ?? answer.response.statusText,
      "error",
    );
  const name = /filename="?([^";]+)"?/.exec(answer.response.headers.get("Content-Disposition") ?? "")?.[1] ?? fallback;
  const url = URL.createObjectURL(answer.data as Blob);
  Object.assign(document.createElement("a"), { href: url, download: name }).click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

// Fetched through the client (it sends the organization), then saved under the API's file name.
export const exportHumanStatistics = (organizationPk: string, query: QueryOf<typeof HUMAN>) =>
  save(
    api.GET("/api/v1/organizations/{organizationPk}/human-statistics/export-excel/", {
      params: { path: { organizationPk }, query },
      parseAs: "blob",
    }),
    "human-statistics.xlsx",
  );

/** An assistant's records as .xlsx (at most 8 MiB of cells) or as CSV (every one, streamed by the API). */
export const exportChatbotRecords = (
  chatbotPk: string,
  query: QueryOf<"/api/v1/chatbots/{chatbotPk}/records/export-excel/">,
  as: "xlsx" | "csv" = "xlsx",
) =>
  save(
    as === "csv"
      ? api.GET("/api/v1/chatbots/{chatbotPk}/records/export-csv/", {
          params: { path: { chatbotPk }, query },
          parseAs: "blob",
        })
      : api.GET("/api/v1/chatbots/{chatbotPk}/records/export-excel/", {
          params: { path: { chatbotPk }, query },
          parseAs: "blob",
        }),
    `records.${as}`,
  );

/** A download button's state: `exporting` while `run` saves the file, its problem kept; `done` is said (a toast). */
export function useDownload(run: () => Promise<void>, done: string) {
  const {
    busy,
    problem,
    run: download,
  } = useAction(async () => {
    await run();
    toast(done);
  });
  return { exporting: busy, exportError: problem, download };
}
