import type { Db } from "../../env";
import { client } from "../../db/prepared";
import { compareSql } from "../../lib/sql";
import { unicodeForms } from "../../lib/text";
import type { UsageCounts } from "../records/usage-statistics";
import { addByKey, countDistinct, onEachPart } from "../shards/parts-sum";
import type { Bucket } from "./buckets";

const DAY = 86_400_000;

/**
 * Usage of an organization per member or per assistant, from the hourly rollups. A member's usage
 * is the traffic of the conversations their API key started (`usage_hourly.member_id` holds the
 * user id); traffic of visitors and widgets belongs to no member and shows under assistants only.
 */
export type UsageScope = "members" | "chatbots";

export type { UsageCounts };

export const USAGE_SORT_FIELDS = [
  "conversationsCount",
  "messagesCount",
  "wordsCount",
  "totalTokens",
  "requestsCount",
] as const;
export type UsageSort = (typeof USAGE_SORT_FIELDS)[number] | "name" | "email" | "createdAt";

/** A usage_hourly row's counters in the daily tables' column order. */
const HOUR_COLUMNS =
  "u.conversations, u.incoming_messages, u.outgoing_messages, u.replies, u.failed_replies, u.words, " +
  "u.requests, u.input_tokens, u.output_tokens";

const SUMS = `coalesce(sum(u.conversations), 0) AS conversations, coalesce(sum(u.incoming_messages), 0) AS incoming,
  coalesce(sum(u.outgoing_messages), 0) AS outgoing, coalesce(sum(u.replies), 0) AS replies,
  coalesce(sum(u.failed_replies), 0) AS failed, coalesce(sum(u.words), 0) AS words,
  coalesce(sum(u.requests), 0) AS requests, coalesce(sum(u.input_tokens), 0) AS input_tokens,
  coalesce(sum(u.output_tokens), 0) AS output_tokens`;

type SumRow = {
  conversations: number;
  incoming: number;
  outgoing: number;
  replies: number;
  failed: number;
  words: number;
  requests: number;
  input_tokens: number;
  output_tokens: number;
};

const NO_SUMS: SumRow = {
  conversations: 0,
  incoming: 0,
  outgoing: 0,
  replies: 0,
  failed: 0,
  words: 0,
  requests: 0,
  input_tokens: 0,
  output_tokens: 0,
};

export const usageCounts = (r: Partial<SumRow> | null | undefined): UsageCounts => {
  const n = (v: number | undefined | null) => v ?? 0;
  return {
    conversationsCount: n(r?.conversations),
    messagesCount: n(r?.incoming) + n(r?.outgoing),
    incomingMessagesCount: n(r?.incoming),
    outgoingMessagesCount: n(r?.outgoing),
    repliesCount: n(r?.replies),
    failedRepliesCount: n(r?.failed),
    wordsCount: n(r?.words),
    requestsCount: n(r?.requests),
    inputTokens: n(r?.input_tokens),
    outputTokens: n(r?.output_tokens),
    totalTokens: n(r?.input_tokens) + n(r?.output_tokens),
  };
};

/** The sort keys of the entity lists, compared as SQL compared them (`compareSql`); the entity's id breaks ties. */
const ORDER: Record<string, { of: (r: UsageEntityRow) => string | number | null; nocase?: boolean }> = {
  conversationsCount: { of: (r) => r.conversations },
  messagesCount: { of: (r) => r.incoming + r.outgoing },
  wordsCount: { of: (r) => r.words },
  totalTokens: { of: (r) => r.input_tokens + r.output_tokens },
  requestsCount: { of: (r) => r.requests },
  name: { of: (r) => r.name, nocase: true },
  email: { of: (r) => r.email, nocase: true },
  createdAt: { of: (r) => r.created_at },
};

export interface UsageQuery {
  organizationId: string;
  start: number;
  end: number;
  chatbotId?: string;
  search?: string;
}

/**
 * `column` contains the search text (ASCII case ignored, in either Unicode form, as lib/sql.ts `contains`): one `?` a
 * form of `forms`.
 */
const containsAny = (column: string, forms: string[]) =>
  forms.map(() => `instr(lower(${column}), lower(?)) > 0`).join(" OR ");

/**
 * The entities of the scope (members with their user, or the organization's assistants) matching
 * `search`, as SQL selecting `id, name, email, created_at, user_id` with its bound values.
 */
function entities(scope: UsageScope, q: UsageQuery): { sql: string; binds: unknown[] } {
  const search = q.search || null;
  const forms = search ? unicodeForms(search) : [];
  if (scope === "members") {
    // A member's id, user id, name or e-mail.
    const named = `${containsAny("us.name", forms)} OR ${containsAny("us.email", forms)}`;
    const where = ` AND (m.id = ? OR us.id = ? OR ${named})`;
    return {
      sql: `SELECT m.id AS id, us.name AS name, us.email AS email, m.created_at AS created_at, us.id AS user_id
        FROM members m JOIN users us ON us.id = m.user_id
        WHERE m.organization_id = ?${search ? where : ""}`,
      binds: search ? [q.organizationId, search, search, ...forms, ...forms] : [q.organizationId],
    };
  }
  // The assistants the organization's record counts (chatbots/quota.ts): its own, and the personal ones its default
  // inboxes host, whose traffic is the organization's; each part read by its own index.
  const matching = search ? ` AND (b.id = ? OR ${containsAny("b.name", forms)})` : "";
  const columns = "b.id AS id, b.name AS name, NULL AS email, b.created_at AS created_at, b.id AS user_id";
  const binds = search ? [q.organizationId, search, ...forms] : [q.organizationId];
  return {
    sql: `SELECT ${columns} FROM chatbots b WHERE b.organization_id = ?${matching}
      UNION ALL SELECT ${columns} FROM inboxes i JOIN chatbots b ON b.id = i.chatbot_id
      WHERE i.organization_id = ? AND i.is_default = 1 AND b.organization_id IS NULL${matching}`,
    binds: [...binds, ...binds],
  };
}

const DAILY: Record<UsageScope, { table: string; key: string }> = {
  members: { table: "usage_daily_members", key: "member_id" },
  chatbots: { table: "usage_daily_chatbots", key: "chatbot_id" },
};

/**
 * `r(s, e, ds, de)`: the range `[s, e)` (on hours) and its whole days `[ds, de)` that the daily
 * tables hold, as far as `usage_rollup` says they reach (read in the same statement, so an answer
 * never trusts days not rolled up yet); without such days ds = de = e. One row per JSON range
 * `[start, end, firstMidnight, lastMidnight]`, numbered `k`.
 */
const RANGES_CTE = `WITH t(through) AS (SELECT coalesce((SELECT through FROM usage_rollup WHERE id = 'daily'), 0)),
  r0(k, s, e, ds, de) AS (SELECT key, json_extract(value, '$[0]'), json_extract(value, '$[1]'),
    json_extract(value, '$[2]'), min(json_extract(value, '$[3]'), (SELECT through FROM t)) FROM json_each(?)),
  b(k, s, e, ds, de) AS (SELECT k, s, e, CASE WHEN de > ds THEN ds ELSE e END, CASE WHEN de > ds THEN de ELSE e END
    FROM r0)`;

const rangeJson = (ranges: { start: number; end: number }[]) =>
  JSON.stringify(
    ranges.map(({ start, end }) => [start, end, Math.ceil(start / DAY) * DAY, Math.floor(end / DAY) * DAY]),
  );

/**
 * The usage rows per range `k` and key: whole rolled-up days from the scope's daily table, the
 * hours around them from usage_hourly; one assistant's from its hour rows only (its primary key
 * range is short). `filters` apply to the rows (`x`), with their values in `binds`.
 */
function rowsByRange(
  scope: UsageScope,
  q: UsageQuery,
  filters: string,
  binds: unknown[],
): { sql: string; binds: unknown[] } {
  const key = scope === "members" ? "member_id" : "chatbot_id";
  const daily = DAILY[scope];
  const columns = HOUR_COLUMNS.replaceAll("u.", "x.");
  // CROSS JOIN keeps the ranges as the outer loop: with a plain JOIN the planner (no statistics in D1)
  // scanned every row of the organization and probed the ranges.
  const part = (table: string, column: string, from: string, to: string) =>
    `SELECT b.k AS k, x.${key} AS key, ${columns} FROM b CROSS JOIN ${table} x ON x.organization_id = ? AND ` +
    `x.${column} >= ${from} AND x.${column} < ${to}${filters}`;
  const own = [q.organizationId, ...binds];
  if (q.chatbotId) return { sql: part("usage_hourly", "hour", "b.s", "b.e"), binds: own };
  return {
    sql: [
      part(daily.table, "day", "b.ds", "b.de"),
      part("usage_hourly", "hour", "b.s", "b.ds"),
      part("usage_hourly", "hour", "b.de", "b.e"),
    ].join(" UNION ALL "),
    binds: [...own, ...own, ...own],
  };
}

export type UsageEntityRow = SumRow & {
  id: string;
  name: string;
  email: string | null;
  created_at: number;
  user_id: string;
};

/**
 * One page of entities with their usage in the range, sorted, and how many match. The entities (configuration: members
 * and users, or assistants) and the usage sums per key are two reads, not one join, because the two are to live in
 * different databases (docs/scale.md §5 step 4); they run at once, and are joined, sorted and paged here as the join's
 * `ORDER BY ... LIMIT` did (it sorted every entity of the organization too).
 */
export async function usageByEntity(
  db: Db,
  parts: Db[],
  scope: UsageScope,
  q: UsageQuery,
  sort: UsageSort,
  descending: boolean,
  limit: number,
  offset: number,
) {
  const e = entities(scope, q);
  const g = rowsByRange(scope, q, q.chatbotId ? " AND x.chatbot_id = ?" : "", q.chatbotId ? [q.chatbotId] : []);
  const [list, sums] = await Promise.all([
    client(db)
      .prepare(e.sql)
      .bind(...e.binds)
      .all<Omit<UsageEntityRow, keyof SumRow>>(),
    onEachPart(parts, async (data) => {
      const { results } = await client(data)
        .prepare(`${RANGES_CTE} SELECT x.key AS key, ${SUMS.replaceAll("u.", "x.")} FROM (${g.sql}) x GROUP BY x.key`)
        .bind(rangeJson([q]), ...g.binds)
        .all<SumRow & { key: string }>();
      return results;
    }),
  ]);
  const byKey = new Map(addByKey(sums, ["key"]).map(({ key, ...sum }) => [key, sum]));
  const rows: UsageEntityRow[] = list.results.map((entity) => ({
    ...entity,
    ...(byKey.get(entity.user_id) ?? NO_SUMS),
  }));
  const order = ORDER[sort] ?? ORDER.name;
  const direction = descending ? -1 : 1;
  rows.sort((a, b) => direction * (compareSql(order.of(a), order.of(b), order.nocase) || compareSql(a.id, b.id)));
  return { rows: rows.slice(offset, offset + limit), count: rows.length };
}

/**
 * The scope's usage per bucket (members: their traffic only), for the entities matching the
 * query's search and assistant, and in total. Each bucket adds its whole rolled-up days (daily
 * tables) and the hours around them (usage_hourly), so a year by month reads ~365 day rows per
 * entity rather than ~8,760 hour rows. The usage from the organization's data parts (`parts`, added); the entities
 * from `db`. Without a search the series and total keep the usage of deleted assistants and removed members (it is
 * still the organization's usage); `active` counts only current ones, so it never exceeds the entities counted
 * beside it.
 */
export async function usageSeries(db: Db, parts: Db[], scope: UsageScope, q: UsageQuery, list: Bucket[]) {
  const e = entities(scope, q);
  // The current (matching) entities' keys first, from the configuration, then bound (the usage rows live elsewhere).
  const current = (
    await client(db)
      .prepare(`SELECT user_id FROM (${e.sql})`)
      .bind(...e.binds)
      .all<{ user_id: string }>()
  ).results.map((r) => r.user_id);
  const keys = q.search ? current : null;
  const key = scope === "members" ? "member_id" : "chatbot_id";
  const filters = [
    scope === "members" ? ` AND x.${key} <> ''` : "",
    q.chatbotId ? " AND x.chatbot_id = ?" : "",
    keys ? ` AND x.${key} IN (SELECT value FROM json_each(?))` : "",
  ].join("");
  const rows = rowsByRange(scope, q, filters, [
    ...(q.chatbotId ? [q.chatbotId] : []),
    ...(keys ? [JSON.stringify(keys)] : []),
  ]);
  // The buckets cover the range, so the total is their sum; only the distinct entities need the range. Over several
  // parts each gives its active keys (at most the organization's members or assistants) for their union.
  const several = parts.length > 1;
  const activeColumns = several ? "DISTINCT x.key AS key" : "count(DISTINCT x.key) AS n";
  const currentOnly = "x.key IN (SELECT value FROM json_each(?))";
  const answers = await onEachPart(parts, (data) => {
    const d1 = client(data);
    return d1.batch<Record<string, number>>([
      d1
        .prepare(
          `${RANGES_CTE} SELECT b.k AS k, ${SUMS.replaceAll("u.", "x.")} FROM b LEFT JOIN (${rows.sql}) x ON ` +
            `x.k = b.k GROUP BY b.k ORDER BY b.k`,
        )
        .bind(rangeJson(list), ...rows.binds),
      d1
        .prepare(`${RANGES_CTE} SELECT ${activeColumns} FROM (${rows.sql}) x WHERE ${currentOnly}`)
        .bind(rangeJson([q]), ...rows.binds, JSON.stringify(current)),
    ]);
  });
  const series = addByKey(
    answers.map(([sums]) => sums.results),
    ["k"],
  );
  const actives = answers.map(([, active]) => active.results);
  const active = several
    ? (countDistinct(
        actives,
        () => 0,
        (r) => r.key,
      ).get(0) ?? 0)
    : actives[0][0].n;
  const results = (series as unknown as (SumRow & { k: number })[]).map((r) => ({
    bucket: list[r.k],
    ...usageCounts(r),
  }));
  const total = usageCounts(null);
  for (const r of results) for (const k of Object.keys(total) as (keyof UsageCounts)[]) total[k] += r[k];
  return { results, total, active };
}
