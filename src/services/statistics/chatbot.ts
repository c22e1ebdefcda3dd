import type { Db } from "../../env";
import { client } from "../../db/prepared";
import { compareSql } from "../../lib/sql";
import { addByKey, countDistinct, onEachPart } from "../shards/parts-sum";
import { bucketRows, type Bucket } from "./buckets";

/**
 * Statistics of one assistant from its hourly rollups (usage_hourly, usage_hourly_contacts): one
 * index range per bucket, never a scan of messages. Every query takes the buckets as one JSON
 * parameter (D1 binds at most 100), `[[start, end], ...]`, and answers one row per bucket.
 */
const BUCKETS_CTE =
  "WITH b(k, s, e) AS (SELECT key, json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?1))";

export interface ChatbotCounts {
  conversationsCount: number;
  incomingMessagesCount: number;
  outgoingMessagesCount: number;
  messagesCount: number;
  contactsCount: number;
  repliesCount: number;
  /** Mean seconds from a question to its reply; null without replies. */
  averageReplyTime: number | null;
  failedRepliesCount: number;
  likesCount: number;
  dislikesCount: number;
  toolCallsCount: number;
}

type SumRow = {
  k: number;
  conversations: number;
  incoming: number;
  outgoing: number;
  replies: number;
  reply_ms: number;
  failed: number;
  likes: number;
  dislikes: number;
  tool_calls: number;
};

const SUMS = `coalesce(sum(u.conversations), 0) AS conversations, coalesce(sum(u.incoming_messages), 0) AS incoming,
  coalesce(sum(u.outgoing_messages), 0) AS outgoing, coalesce(sum(u.replies), 0) AS replies,
  coalesce(sum(u.reply_ms), 0) AS reply_ms, coalesce(sum(u.failed_replies), 0) AS failed,
  coalesce(sum(u.likes), 0) AS likes, coalesce(sum(u.dislikes), 0) AS dislikes,
  coalesce(sum(u.tool_calls), 0) AS tool_calls`;

const counts = (r: Omit<SumRow, "k">, contacts: number): ChatbotCounts => ({
  conversationsCount: r.conversations,
  incomingMessagesCount: r.incoming,
  outgoingMessagesCount: r.outgoing,
  messagesCount: r.incoming + r.outgoing,
  contactsCount: contacts,
  repliesCount: r.replies,
  averageReplyTime: r.replies ? Math.round(r.reply_ms / r.replies) / 1000 : null,
  failedRepliesCount: r.failed,
  likesCount: r.likes,
  dislikesCount: r.dislikes,
  toolCallsCount: r.tool_calls,
});

/**
 * Which traffic statistics count: everything (`includeTests`), or all but test conversations (the
 * console's try-it), whose counters usage_hourly_tests holds apart and which are subtracted here
 * (docs/decisions.md, "Test traffic apart"). Distinct contacts are not subtracted: try-it
 * conversations have none.
 */
export interface TrafficScope {
  includeTests: boolean;
}

/** `a - b`, counter by counter (the bucket key kept). */
const minus = <T extends Record<string, number | string | null>>(a: T, b: T | undefined): T =>
  b
    ? (Object.fromEntries(
        Object.entries(a).map(([k, v]) => [k, k === "k" || typeof v !== "number" ? v : v - Number(b[k] ?? 0)]),
      ) as T)
    : a;

/** Distinct contacts per bucket (`n`), or, over several parts, each bucket's contacts (`id`) for their union. */
const CONTACTS_PER_BUCKET = {
  count:
    `${BUCKETS_CTE} SELECT b.k AS k, count(DISTINCT x.contact_id) AS n FROM b LEFT JOIN ` +
    `usage_hourly_contacts x ON x.chatbot_id = ?2 AND x.hour >= b.s AND x.hour < b.e GROUP BY b.k ORDER ` +
    `BY b.k`,
  set:
    `${BUCKETS_CTE} SELECT DISTINCT b.k AS k, x.contact_id AS id FROM b JOIN usage_hourly_contacts x ON ` +
    "x.chatbot_id = ?2 AND x.hour >= b.s AND x.hour < b.e",
};
/** Distinct contacts over the range (`n`), or its contacts (`id`). */
const CONTACTS_IN_RANGE = {
  count:
    `SELECT count(DISTINCT contact_id) AS n FROM usage_hourly_contacts WHERE chatbot_id = ?1 AND hour >= ` +
    `?2 AND hour < ?3`,
  set: "SELECT DISTINCT contact_id AS id FROM usage_hourly_contacts WHERE chatbot_id = ?1 AND hour >= ?2 AND hour < ?3",
};

/**
 * Per bucket and over the whole range (distinct contacts over the range are not the sum of the buckets'), over the
 * organization's data parts (services/shards/parts-sum.ts): the counters added, the contacts' sets unioned.
 */
export async function chatbotStatistics(
  parts: Db[],
  chatbotId: string,
  list: Bucket[],
  scope: TrafficScope = { includeTests: false },
) {
  const json = JSON.stringify(list.map((b) => [b.start, b.end]));
  const start = list[0].start;
  const end = list[list.length - 1].end;
  const contactsAs = parts.length > 1 ? "set" : "count";
  const answers = await onEachPart(parts, (data) => {
    const d1 = client(data);
    const sumsOf = (table: string) =>
      d1
        .prepare(
          `${BUCKETS_CTE} SELECT b.k AS k, ${SUMS} FROM b LEFT JOIN ${table} u ON u.chatbot_id = ?2 AND u.hour ` +
            `>= b.s AND u.hour < b.e GROUP BY b.k ORDER BY b.k`,
        )
        .bind(json, chatbotId);
    const totalOf = (table: string) =>
      d1
        .prepare(`SELECT ${SUMS} FROM ${table} u WHERE u.chatbot_id = ?1 AND u.hour >= ?2 AND u.hour < ?3`)
        .bind(chatbotId, start, end);
    return d1.batch<Record<string, number>>([
      sumsOf("usage_hourly"),
      d1.prepare(CONTACTS_PER_BUCKET[contactsAs]).bind(json, chatbotId),
      totalOf("usage_hourly"),
      d1.prepare(CONTACTS_IN_RANGE[contactsAs]).bind(chatbotId, start, end),
      ...(scope.includeTests ? [] : [sumsOf("usage_hourly_tests"), totalOf("usage_hourly_tests")]),
    ]);
  });
  // The i-th statement's rows of every part.
  const rowsOf = (i: number) => answers.map((batch) => batch[i]?.results ?? []);
  const [sums, total] = [addByKey(rowsOf(0), ["k"]), addByKey(rowsOf(2), [])];
  const contactsBy =
    contactsAs === "set"
      ? countDistinct(
          rowsOf(1),
          (r) => r.k,
          (r) => r.id,
        )
      : new Map(rowsOf(1)[0].map((r) => [r.k, r.n]));
  const totalContacts =
    contactsAs === "set"
      ? (countDistinct(
          rowsOf(3),
          () => 0,
          (r) => r.id,
        ).get(0) ?? 0)
      : (rowsOf(3)[0][0]?.n ?? 0);
  const tests = !scope.includeTests;
  const testSums = tests ? (addByKey(rowsOf(4), ["k"]) as unknown as SumRow[]) : undefined;
  const testTotal = tests ? (addByKey(rowsOf(5), [])[0] as unknown as SumRow) : undefined;
  const testsBy = new Map(testSums?.map((r) => [r.k, r]) ?? []);
  const results = (sums as unknown as SumRow[]).map((r) => ({
    bucket: list[r.k],
    ...counts(minus(r, testsBy.get(r.k)), contactsBy.get(r.k) ?? 0),
  }));
  const whole = minus(total[0] as unknown as SumRow, testTotal);
  return { results, total: counts(whole, totalContacts) };
}

export interface TokenCounts {
  requestsCount: number;
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  wordsCount: number;
}

type UsageRow = {
  k: number;
  model_id: string | null;
  requests: number;
  input_tokens: number;
  output_tokens: number;
  words: number;
};

const tokens = (r: Pick<UsageRow, "requests" | "input_tokens" | "output_tokens" | "words">): TokenCounts => ({
  requestsCount: r.requests,
  inputTokens: r.input_tokens,
  outputTokens: r.output_tokens,
  totalTokens: r.input_tokens + r.output_tokens,
  wordsCount: r.words,
});

/** Language-model usage of one assistant per bucket and per model (models named as they are now, read by ids on `db`,
 * the configuration; a deleted one keeps its id), added over the organization's data parts (`parts`). */
export async function llmUsageStatistics(
  db: Db,
  parts: Db[],
  chatbotId: string,
  list: Bucket[],
  scope: TrafficScope = { includeTests: false },
) {
  const json = JSON.stringify(list.map((b) => [b.start, b.end]));
  const answers = await onEachPart(parts, (data) => {
    const d1 = client(data);
    const usageOf = (table: string) =>
      d1
        .prepare(
          `${BUCKETS_CTE} SELECT b.k AS k, u.model_id AS model_id, coalesce(sum(u.requests), 0) AS requests,
          coalesce(sum(u.input_tokens), 0) AS input_tokens, coalesce(sum(u.output_tokens), 0) AS output_tokens,
          coalesce(sum(u.words), 0) AS words
        FROM b LEFT JOIN ${table} u
          ON u.chatbot_id = ?2 AND u.hour >= b.s AND u.hour < b.e AND u.model_id <> '' AND u.requests > 0
        GROUP BY b.k, u.model_id ORDER BY b.k`,
        )
        .bind(json, chatbotId);
    return d1.batch<UsageRow>([
      usageOf("usage_hourly"),
      ...(scope.includeTests ? [] : [usageOf("usage_hourly_tests")]),
    ]);
  });
  // Over several parts, in the order one database's GROUP BY gives them: by bucket, then by model.
  const added = (i: number) => {
    const rows = addByKey(
      answers.map((batch) => batch[i]?.results ?? []),
      ["k", "model_id"],
    );
    return parts.length > 1 ? rows.sort((a, b) => a.k - b.k || compareSql(a.model_id, b.model_id)) : rows;
  };
  const [all, tests] = [{ results: added(0) }, scope.includeTests ? undefined : { results: added(1) }];
  // Test conversations' usage taken out, bucket by bucket and model by model (a model used only by tests drops out).
  const testsBy = new Map((tests?.results ?? []).filter((r) => r.model_id).map((r) => [`${r.k} ${r.model_id}`, r]));
  const results = all.results
    .map((r) => (r.model_id ? minus(r, testsBy.get(`${r.k} ${r.model_id}`)) : r))
    .filter((r) => !r.model_id || r.requests > 0);
  const modelIds = [...new Set(results.map((r) => r.model_id).filter((id): id is string => !!id))];
  const names = new Map<string, string>();
  if (modelIds.length) {
    const named = await client(db)
      .prepare("SELECT id, name FROM models WHERE id IN (SELECT value FROM json_each(?1))")
      .bind(JSON.stringify(modelIds))
      .all<{ id: string; name: string }>();
    for (const m of named.results) names.set(m.id, m.name);
  }
  const model = (id: string) => ({ id, name: names.get(id) ?? "" });
  const empty = { requests: 0, input_tokens: 0, output_tokens: 0, words: 0 };
  const perBucket = list.map(() => ({
    ...empty,
    models: [] as (TokenCounts & { model: { id: string; name: string } })[],
  }));
  const perModel = new Map<string, typeof empty>();
  for (const r of results) {
    if (!r.model_id) continue;
    const b = perBucket[r.k];
    b.requests += r.requests;
    b.input_tokens += r.input_tokens;
    b.output_tokens += r.output_tokens;
    b.words += r.words;
    b.models.push({ model: model(r.model_id), ...tokens(r) });
    const m = perModel.get(r.model_id) ?? { ...empty };
    m.requests += r.requests;
    m.input_tokens += r.input_tokens;
    m.output_tokens += r.output_tokens;
    m.words += r.words;
    perModel.set(r.model_id, m);
  }
  const total = [...perModel.values()].reduce(
    (a, m) => ({
      requests: a.requests + m.requests,
      input_tokens: a.input_tokens + m.input_tokens,
      output_tokens: a.output_tokens + m.output_tokens,
      words: a.words + m.words,
    }),
    { ...empty },
  );
  return {
    results: perBucket.map((b, i) => ({ bucket: list[i], ...tokens(b), models: b.models })),
    total: { ...tokens(total), models: [...perModel].map(([id, m]) => ({ model: model(id), ...tokens(m) })) },
  };
}

/**
 * An assistant's figures as its statistics routes answer them: the assistant, how the buckets are cut, the range in
 * the terms of the request (`range`), then the figures over the whole range and per bucket.
 */
export const chatbotFiguresBody = <C extends object, R extends object, U, T extends object>(
  chatbot: { id: string; name: string },
  cut: C,
  range: R,
  figures: { total: U; results: ({ bucket: Bucket } & T)[] },
) => ({
  chatbot: { id: chatbot.id, name: chatbot.name },
  ...cut,
  ...range,
  total: figures.total,
  results: bucketRows(figures.results),
});
