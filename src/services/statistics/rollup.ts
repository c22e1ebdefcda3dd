/**
 * Daily rollups for organization-wide usage over long ranges (usage_daily_members,
 * usage_daily_chatbots). A UTC day is rolled up from its hour rows once it ended SETTLE_MS ago (a
 * message is stored at most seconds after the time it carries), by the housekeeping cron or by the
 * first usage request that finds the rollup behind (in the background: answers read the hour rows
 * of days not rolled up yet). Each run recomputes whole days from the hour
 * rows (delete, then insert), so a repeated or concurrent run writes the same rows; only the run
 * that still sees the old watermark moves it. Nothing is added to the message write path.
 */
const DAY = 86_400_000;
const SETTLE_MS = 2 * 3_600_000;
/** At most this many days per run (a first run over years of history is split across requests and crons). */
const MAX_DAYS_PER_RUN = 400;
/** How long an isolate trusts the watermark it read (the cron moves it every 15 minutes at most). */
const REMEMBER_MS = 60_000;

/** Per database holding data planes: each has its own rollups and watermark (`usage_rollup`). */
let remembered = new WeakMap<D1Database, { through: number; at: number }>();

const COUNTERS =
  "conversations, incoming_messages, outgoing_messages, replies, failed_replies, words, requests, " +
  "input_tokens, output_tokens";
const SUMS =
  "sum(conversations), sum(incoming_messages), sum(outgoing_messages), sum(replies), sum(failed_replies), " +
  "sum(words), sum(requests), sum(input_tokens), sum(output_tokens)";

/** The last complete, settled UTC midnight at `now`: days before it can be rolled up. */
export const settledThrough = (now: number) => Math.floor((now - SETTLE_MS) / DAY) * DAY;

/** Rolls up the days not yet rolled up; returns how far the rollups reach. */
export async function rollUpDays(d1: D1Database, now = Date.now()): Promise<number> {
  const row = await d1.prepare("SELECT through FROM usage_rollup WHERE id = 'daily'").first<{ through: number }>();
  let through = row?.through ?? null;
  if (through === null) {
    const first = await d1.prepare("SELECT min(hour) AS h FROM usage_hourly").first<{ h: number | null }>();
    through = first?.h === null || first?.h === undefined ? settledThrough(now) : Math.floor(first.h / DAY) * DAY;
  }
  const target = Math.min(settledThrough(now), through + MAX_DAYS_PER_RUN * DAY);
  if (target > through) {
    await d1.batch([
      d1.prepare("DELETE FROM usage_daily_members WHERE day >= ?1 AND day < ?2").bind(through, target),
      d1.prepare("DELETE FROM usage_daily_chatbots WHERE day >= ?1 AND day < ?2").bind(through, target),
      d1
        .prepare(`INSERT INTO usage_daily_members (organization_id, day, member_id, ${COUNTERS})
          SELECT organization_id, hour - hour % ${DAY}, member_id, ${SUMS} FROM usage_hourly
          WHERE hour >= ?1 AND hour < ?2 GROUP BY 1, 2, 3`)
        .bind(through, target),
      d1
        .prepare(`INSERT INTO usage_daily_chatbots (organization_id, day, chatbot_id, ${COUNTERS})
          SELECT organization_id, hour - hour % ${DAY}, chatbot_id, ${SUMS} FROM usage_hourly
          WHERE hour >= ?1 AND hour < ?2 GROUP BY 1, 2, 3`)
        .bind(through, target),
      d1
        .prepare(
          "INSERT INTO usage_rollup (id, through) VALUES ('daily', ?2) ON CONFLICT (id) DO UPDATE SET through " +
            "= excluded.through WHERE usage_rollup.through = ?1",
        )
        .bind(row ? through : null, target),
    ]);
    through = target;
  } else if (!row) {
    await d1.prepare("INSERT OR IGNORE INTO usage_rollup (id, through) VALUES ('daily', ?)").bind(through).run();
  }
  remembered.set(d1, { through, at: now });
  return through;
}

/**
 * Rolls up when the rollups are behind, as a request's background work (answers never depend on
 * it: they read hour rows for the days not rolled up). The watermark is remembered per isolate
 * for a minute, so most requests skip even the read.
 */
export async function rollUpIfBehind(d1: D1Database, now = Date.now()): Promise<void> {
  const known = remembered.get(d1);
  if (known && now - known.at < REMEMBER_MS && known.through >= settledThrough(now)) return;
  await rollUpDays(d1, now);
}

/**
 * Hour rows written for days already rolled up (an import of history) need those days rolled up
 * again: moves the watermark back to the day holding `hour`. No writer needs it but the data plane's move (tests set
 * their history with it): every hour row is written in the hour of something stored now (a message, a new
 * conversation, a failed reply), and the one count added to an old hour, a rating's, is not in the daily tables. The
 * move copies old hour rows into a shard with the daily rows `DB` rolled up, and at the switch rolls the shard back
 * to the first day `DB` had not rolled up for the organization (services/shards/data-plane-move.ts).
 */
export async function rollBackTo(d1: D1Database, hour: number): Promise<void> {
  await d1
    .prepare("UPDATE usage_rollup SET through = min(through, ?) WHERE id = 'daily'")
    .bind(Math.floor(hour / DAY) * DAY)
    .run();
  // Forgotten for every database: the binding given may not be the one a request reads through.
  remembered = new WeakMap();
}
