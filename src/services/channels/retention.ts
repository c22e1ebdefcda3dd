// How long a messaging channel keeps its rows once they have done their work (docs/decisions.md, "Channel rows kept
// for a time"). Every platform event and every reply sent leaves a row in the organization's data plane (~570 and
// ~530 B per turn, `BENCH_CHANNEL=telegram npm run bench -- storage`); kept for ever they would grow its shard with
// every turn. Pending events and deliveries, failed deliveries (an operator may send them again) and rows whose state
// the message does not show yet are never removed.
import { sqlStatement } from "../../db/prepared";
import type { Db } from "../../env";

const DAY_MS = 86_400_000;
/**
 * A taken-in event (stored or ignored) is kept as long as its platform may send it again, so that a redelivery is
 * still the same row and never a second message: Meta retries an unanswered event for up to 7 days, the longest of
 * the platforms (LINE, Telegram and Slack retry for minutes to a day).
 */
export const EVENT_KEEP_MS = 8 * DAY_MS;
/**
 * A sent reply's row: what the retry of its message answers (409, sent already) and nothing else once the message
 * shows its state; a month.
 */
export const DELIVERY_KEEP_MS = 30 * DAY_MS;
/**
 * An e-mail reply's row is also how an answer naming only the reply (In-Reply-To, no References) finds its thread
 * (channels/email-handler.ts, `ourThread`): half a year. An e-mail's ids are its Message-IDs, `<local@domain>`, the
 * only platform ids with an "@".
 */
export const EMAIL_DELIVERY_KEEP_MS = 180 * DAY_MS;

const PAGE = 1_000;
const PAGES_PER_RUN = 20;

const DELETE_EVENTS = `DELETE FROM channel_events WHERE rowid IN (
  SELECT rowid FROM channel_events WHERE status IN ('stored', 'ignored') AND received_at < ?1 LIMIT ?2)`;
// `next_attempt_at` bounds the index's range (`channel_deliveries_pending_idx`): a reply is sent after it was due.
const DELETE_DELIVERIES = `DELETE FROM channel_deliveries WHERE rowid IN (
  SELECT rowid FROM channel_deliveries
  WHERE status = 'sent' AND next_attempt_at < ?1 AND sent_at < ?1 AND shown = 1
    AND (sent_at < ?2 OR coalesce(platform_message_ids, '') NOT LIKE '%@%')
  LIMIT ?3)`;

/** Deletes one statement's rows page by page, `pages` at most; answers how many went. */
async function inPages(statement: () => D1PreparedStatement, pages: number, size: number): Promise<number> {
  let removed = 0;
  for (let page = 0; page < pages; page++) {
    const { meta } = await statement().run();
    removed += meta.changes;
    if (meta.changes < size) break;
  }
  return removed;
}

/**
 * Housekeeping, on each data plane: removes the channel events and sent deliveries past their time, oldest first,
 * `pages` pages of `size` rows of each at most (the rest go in the next runs).
 */
export async function pruneChannelRows(
  data: Db,
  now: number,
  { pages = PAGES_PER_RUN, size = PAGE } = {},
): Promise<{ events: number; deliveries: number }> {
  const events = await inPages(() => sqlStatement(data, DELETE_EVENTS).bind(now - EVENT_KEEP_MS, size), pages, size);
  const deliveries = await inPages(
    () => sqlStatement(data, DELETE_DELIVERIES).bind(now - DELIVERY_KEEP_MS, now - EMAIL_DELIVERY_KEEP_MS, size),
    pages,
    size,
  );
  return { events, deliveries };
}
