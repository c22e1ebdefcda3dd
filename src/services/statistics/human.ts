// The human side's figures (docs/decisions.md, "Handoff stretches by triggers"): read from the
// stretches with people (conversation_handoffs: opened and closed by the triggers of migration 0025, a message's part
// written with it by statistics/message-figures.ts), grouped by
// agent, team, assistant or day. Medians and 90th percentiles are computed here over the range's
// stretches (linear interpolation between ranks, as spreadsheets' PERCENTILE.INC), not in SQL.
import type { Db } from "../../env";
import { client } from "../../db/prepared";
import { firstAcrossParts, sqlOrder } from "../shards/parts-merge";
import { notFound } from "../../lib/errors";
import type { Durations, HumanFigures, HumanGroupFigures } from "../records/human-statistics";
import { checkTimezone, daysOrMonthToDate, exactDayRange, exactDays } from "./buckets";

export const HUMAN_GROUPS = ["agent", "team", "assistant", "day"] as const;
export type HumanGroup = (typeof HUMAN_GROUPS)[number];

export interface HumanQuery {
  organizationId: string;
  start: number;
  end: number;
  timezone: string;
  groupBy: HumanGroup;
  inboxId?: string;
  chatbotId?: string;
  labelId?: string;
  includeTests: boolean;
}

/** What a request for the human side's figures asks (the endpoints' query). */
export interface HumanRequest {
  startDate?: string;
  endDate?: string;
  timezone?: string;
  groupBy: HumanGroup;
  inbox?: string;
  chatbot?: string;
  label?: string;
  includeTests: "true" | "false";
}

const FILTERS = [
  ["inbox", "inboxes", "Inbox not found."],
  ["chatbot", "chatbots", "Assistant not found."],
  ["label", "labels", "Label not found."],
] as const;

/** The request's range (local days in its timezone, by default this month up to today) and filters, each the
 * organization's (else 404). */
export async function humanQueryOf(db: Db, organizationId: string, q: HumanRequest) {
  const timezone = checkTimezone(q.timezone);
  // Stretches carry exact times: the days run from local midnight, not from its hour ("Statistics, records and
  // evaluation" in docs/decisions.md: only the counters are hourly).
  const { startDate, endDate, start, end } = daysOrMonthToDate(timezone, q.startDate, q.endDate, exactDayRange);
  for (const [field, table, detail] of FILTERS) {
    const id = q[field];
    if (!id) continue;
    const found = await client(db)
      .prepare(`SELECT 1 AS x FROM ${table} WHERE id = ? AND organization_id = ?`)
      .bind(id, organizationId)
      .first();
    if (!found) throw notFound(detail);
  }
  const query: HumanQuery = {
    organizationId,
    start,
    end,
    timezone,
    groupBy: q.groupBy,
    inboxId: q.inbox,
    chatbotId: q.chatbot,
    labelId: q.label,
    includeTests: q.includeTests === "true",
  };
  return { startDate, endDate, timezone, query };
}

interface StretchRow {
  conversation_id: string;
  chatbot_id: string | null;
  team_id: string | null;
  assignee_id: string | null;
  queued_at: number;
  assigned_at: number | null;
  first_response_at: number | null;
  ended_at: number | null;
  resolved: number;
  csat_rating: number | null;
}

/** More stretches than a range of the figures reads at once (a year of a busy desk). */
export const MAX_STRETCHES = 200_000;

function stretchesQuery(q: HumanQuery): { sql: string; binds: unknown[] } {
  const where = ["h.organization_id = ?", "h.queued_at >= ?", "h.queued_at < ?"];
  const binds: unknown[] = [q.organizationId, q.start, q.end];
  if (!q.includeTests) where.push("h.is_test = 0");
  if (q.inboxId) where.push("h.inbox_id = ?") && binds.push(q.inboxId);
  if (q.chatbotId) where.push("h.chatbot_id = ?") && binds.push(q.chatbotId);
  if (q.labelId)
    where.push(
      "EXISTS (SELECT 1 FROM conversation_labels l WHERE l.conversation_id = h.conversation_id AND l.label_id = ?)",
    ) && binds.push(q.labelId);
  return {
    sql: `SELECT h.conversation_id, h.chatbot_id, h.team_id, h.assignee_id, h.queued_at, h.assigned_at,
        h.first_response_at, h.ended_at, h.resolved, c.csat_rating
      FROM conversation_handoffs h JOIN conversations c ON c.id = h.conversation_id
      WHERE ${where.join(" AND ")} ORDER BY h.queued_at LIMIT ${MAX_STRETCHES}`,
    binds,
  };
}

/** The `p` quantile (0..1) of sorted values, interpolated between ranks. */
export function quantile(sorted: number[], p: number): number | null {
  if (!sorted.length) return null;
  const rank = (sorted.length - 1) * p;
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return sorted[low] + (sorted[high] - sorted[low]) * (rank - low);
}

const round = (v: number | null, digits = 1) => (v === null ? null : Math.round(v * 10 ** digits) / 10 ** digits);

function durations(ms: number[]): Durations {
  const sorted = ms.map((v) => Math.max(v, 0) / 1000).sort((a, b) => a - b);
  return { count: sorted.length, median: round(quantile(sorted, 0.5)), p90: round(quantile(sorted, 0.9)) };
}

/** The figures of a set of stretches; CSAT counts each conversation once. */
export function figuresOf(rows: StretchRow[]): HumanFigures {
  const waiting: number[] = [];
  const response: number[] = [];
  const resolution: number[] = [];
  const ratings = new Map<string, number>();
  let resolved = 0;
  for (const r of rows) {
    const reached = [r.assigned_at, r.first_response_at].filter((v): v is number => v !== null);
    if (reached.length) waiting.push(Math.min(...reached) - r.queued_at);
    if (r.first_response_at !== null) response.push(r.first_response_at - r.queued_at);
    if (r.resolved && r.ended_at !== null) {
      resolved++;
      resolution.push(r.ended_at - r.queued_at);
    }
    if (r.csat_rating !== null && r.csat_rating >= 1 && r.csat_rating <= 5)
      ratings.set(r.conversation_id, r.csat_rating);
  }
  const distribution = { "1": 0, "2": 0, "3": 0, "4": 0, "5": 0 };
  let sum = 0;
  for (const rating of ratings.values()) {
    distribution[String(rating) as keyof typeof distribution]++;
    sum += rating;
  }
  return {
    handoffsCount: rows.length,
    resolvedCount: resolved,
    waitingTime: durations(waiting),
    firstResponseTime: durations(response),
    resolutionTime: durations(resolution),
    csat: { count: ratings.size, average: ratings.size ? round(sum / ratings.size, 2) : null, distribution },
  };
}

const NAME_QUERIES: Record<Exclude<HumanGroup, "day">, string> = {
  agent: "SELECT id, coalesce(nullif(name, ''), email) AS name FROM users WHERE id IN (SELECT value FROM json_each(?))",
  team: "SELECT id, name FROM groups WHERE organization_id = ? AND id IN (SELECT value FROM json_each(?))",
  assistant: "SELECT id, name FROM chatbots WHERE organization_id = ? AND id IN (SELECT value FROM json_each(?))",
};

const keyOf = (group: Exclude<HumanGroup, "day">, r: StretchRow) =>
  group === "agent" ? r.assignee_id : group === "team" ? r.team_id : r.chatbot_id;

/**
 * The figures of the organization's stretches queued in `[start, end)`: in total and per group
 * (agents, teams and assistants by most handoffs; every day of the range, with zeros): the stretches from `parts`, the
 * names of the groups by ids from `db`, the configuration.
 */
export async function humanStatistics(
  db: Db,
  parts: Db[],
  q: HumanQuery,
): Promise<{ total: HumanFigures; results: HumanGroupFigures[] }> {
  const { sql, binds } = stretchesQuery(q);
  // Each data part's first stretches, merged by queued_at and cut at the same limit: the figures are the whole
  // organization's (percentiles do not add up part by part).
  const rows = await firstAcrossParts(
    parts,
    async (data) =>
      (
        await client(data)
          .prepare(sql)
          .bind(...binds)
          .all<StretchRow>()
      ).results,
    sqlOrder((r) => [r.queued_at]),
    MAX_STRETCHES,
  );
  const total = figuresOf(rows);
  if (q.groupBy === "day") {
    const days = exactDays(q.timezone, q.start, q.end);
    const perDay = days.map(() => [] as StretchRow[]);
    let i = 0;
    // Rows come oldest first: walk the days along them.
    for (const r of rows) {
      while (i < days.length - 1 && r.queued_at >= days[i].end) i++;
      perDay[i].push(r);
    }
    return { total, results: days.map((day, n) => ({ key: day.time, name: day.time, ...figuresOf(perDay[n]) })) };
  }
  const group = q.groupBy;
  const grouped = new Map<string | null, StretchRow[]>();
  for (const r of rows) {
    const key = keyOf(group, r);
    const list = grouped.get(key);
    if (list) list.push(r);
    else grouped.set(key, [r]);
  }
  const ids = [...grouped.keys()].filter((k): k is string => k !== null);
  const names = new Map<string, string>();
  if (ids.length) {
    const d1 = client(db);
    const statement =
      group === "agent"
        ? d1.prepare(NAME_QUERIES.agent).bind(JSON.stringify(ids))
        : d1.prepare(NAME_QUERIES[group]).bind(q.organizationId, JSON.stringify(ids));
    for (const r of (await statement.all<{ id: string; name: string }>()).results) names.set(r.id, r.name);
  }
  const results = [...grouped.entries()].map(([key, list]) => ({
    key,
    name: key === null ? null : (names.get(key) ?? null),
    ...figuresOf(list),
  }));
  results.sort((a, b) => b.handoffsCount - a.handoffsCount || (a.name ?? "\uffff").localeCompare(b.name ?? "\uffff"));
  return { total, results };
}
