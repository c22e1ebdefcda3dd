// The deletes that cascade from the control plane (`DB`: inboxes, webhooks, labels, assistants, tools, groups,
// organizations) into the data plane, done in code: once an organization's data plane lives in its shard the foreign
// keys between them are gone (docs/scale.md §5 step 4, worklist 2). A control delete writes a purge beside the data
// first, then deletes its row in `DB`; the housekeeping cron deletes or unlinks the rows by pages (an inbox may hold
// more conversations than one batch should take), then drops the purge. An organization's delete takes its data rows
// by pages before its `DB` row. Until the keys are dropped they still cascade, so this code finds the rows gone.
import { sql } from "drizzle-orm";
import { client } from "../db/prepared";
import { purges } from "../db/schema";
import type { Db } from "../env";

export type PurgeKind = (typeof purges.$inferSelect)["kind"];
export type Purge = { organizationId: string | null; kind: PurgeKind; id: string };

/** Rows per page: one statement's changes, one batch's conversations named to forget. */
const PAGE = 500;
/** Pages one cron run spends at most. */
const PAGES_PER_RUN = 50;

/** One page of a purge's rows: deletes or unlinks up to `size` of them, answering how many it took. */
type Page = (d1: D1Database, id: string, size: number, now: number) => Promise<number>;

const changed = async (statement: D1PreparedStatement) => (await statement.run()).meta.changes;

/** A page of `table`'s rows whose `column` is the id. */
const deleteBy =
  (table: string, column: string): Page =>
  (d1, id, size) =>
    changed(
      d1
        .prepare(`DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM ${table} WHERE ${column} = ?1 LIMIT ?2)`)
        .bind(id, size),
    );

/** A page of `table`'s rows whose `column` is the id, set to null (the key's ON DELETE SET NULL). */
const unlinkBy =
  (table: string, column: string): Page =>
  (d1, id, size) =>
    changed(
      d1
        .prepare(
          `UPDATE ${table} SET ${column} = NULL ` +
            `WHERE rowid IN (SELECT rowid FROM ${table} WHERE ${column} = ?1 LIMIT ?2)`,
        )
        .bind(id, size),
    );

/**
 * A page of the conversations whose `column` is the id: named in `forgotten_conversations` for their objects to
 * forget their messages (services/conversation/forget.ts) in the batch that deletes them; their labels, stretches,
 * events, messages and channel deliveries go with them (keys inside the data plane).
 */
const conversationsBy =
  (column: string): Page =>
  async (d1, id, size, now) => {
    const { results } = await d1
      .prepare(`SELECT id FROM conversations WHERE ${column} = ?1 LIMIT ?2`)
      .bind(id, size)
      .all<{ id: string }>();
    if (!results.length) return 0;
    const ids = JSON.stringify(results.map((r) => r.id));
    await d1.batch([
      d1
        .prepare(
          "INSERT OR IGNORE INTO forgotten_conversations (conversation_id, forgotten_at) " +
            "SELECT value, ?2 FROM json_each(?1)",
        )
        .bind(ids, now),
      d1.prepare("DELETE FROM conversations WHERE id IN (SELECT value FROM json_each(?1))").bind(ids),
    ]);
    return results.length;
  };

/** What each kind of purge takes, in order: the keys that cascade or set null from its control-plane row. */
const PAGES: Record<PurgeKind, Page[]> = {
  inbox: [
    conversationsBy("inbox_id"),
    deleteBy("contact_inboxes", "inbox_id"),
    deleteBy("channel_events", "inbox_id"),
    deleteBy("channel_threads", "inbox_id"),
    deleteBy("channel_deliveries", "inbox_id"),
  ],
  webhook: [deleteBy("webhook_deliveries", "webhook_id")],
  label: [deleteBy("conversation_labels", "label_id")],
  // The records as the trigger `chatbot_records_on_chatbot_delete` deletes them.
  chatbot: [
    unlinkBy("conversations", "chatbot_id"),
    unlinkBy("webhook_deliveries", "chatbot_id"),
    unlinkBy("tool_execution_records", "chatbot_id"),
    unlinkBy("tool_record_segments", "chatbot_id"),
    deleteBy("chatbot_records", "chatbot_id"),
    deleteBy("chatbot_words", "chatbot_id"),
  ],
  tool: [unlinkBy("tool_execution_records", "tool_id"), unlinkBy("tool_record_segments", "tool_id")],
  // Stretches keep their `team_id` unkeyed, as the key does.
  group: [unlinkBy("conversations", "team_id")],
};

/**
 * Writes the purges in each part of the organization's data plane (`parts`), before the control delete's batch (an
 * empty list writes nothing). A purge written again moves its `since` on, even within the millisecond: a run that
 * read it before then does not drop it (`runPurges`), so the rows written before this write are purged by a later run.
 */
export async function writePurges(parts: Db[], list: Purge[], now = Date.now()) {
  if (!list.length) return;
  for (const data of parts) await purgeWrite(data, list, now);
}

/** `writePurges`'s statement in one part (`data`), for a batch; `list` not empty. */
export const purgeWrite = (data: Db, list: Purge[], now = Date.now()) =>
  data
    .insert(purges)
    .values(list.map((p) => ({ ...p, since: now })))
    .onConflictDoUpdate({
      target: [purges.kind, purges.id],
      set: { since: sql`max(excluded.since, ${purges.since} + 1)` },
    });

/**
 * Deletes or unlinks the rows of one purge, `pages` pages of `size` rows at most; answers whether it is through (its
 * every page came back short), or else the pages it used.
 */
export async function purgeRows(
  data: Db,
  purge: { kind: PurgeKind; id: string },
  now: number,
  { pages = PAGES_PER_RUN, size = PAGE } = {},
): Promise<{ done: boolean; used: number }> {
  const d1 = client(data);
  let used = 0;
  for (const page of PAGES[purge.kind] ?? []) {
    for (;;) {
      if (used === pages) return { done: false, used };
      used++;
      if ((await page(d1, purge.id, size, now)) < size) break;
    }
  }
  return { done: true, used };
}

/**
 * Cron step, on each data plane (`dataDbs`): works off its purges, oldest first, `pages` pages of `size` rows at most
 * a run; a purge through is dropped, one left unfinished goes on where the next run finds its rows. A purge written
 * again since this run read it (its `since` moved on) is kept for the next run. Returns the purges dropped.
 */
export async function runPurges(data: Db, now: number, { pages = PAGES_PER_RUN, size = PAGE } = {}): Promise<number> {
  const d1 = client(data);
  const { results } = await d1
    .prepare("SELECT kind, id, since FROM purges ORDER BY since LIMIT ?1")
    .bind(pages)
    .all<{ kind: PurgeKind; id: string; since: number }>();
  let left = pages;
  let dropped = 0;
  for (const purge of results) {
    const { done, used } = await purgeRows(data, purge, now, { pages: left, size });
    left -= used;
    if (!done) break;
    dropped += await changed(
      d1
        .prepare("DELETE FROM purges WHERE kind = ?1 AND id = ?2 AND since = ?3")
        .bind(purge.kind, purge.id, purge.since),
    );
  }
  return dropped;
}

/** An organization's data-plane tables other than `conversations`, in an order their keys allow. */
const ORGANIZATION_TABLES = [
  "messages",
  "conversation_labels",
  "conversation_handoffs",
  "channel_deliveries",
  "webhook_deliveries",
  "conversation_events",
  "channel_events",
  "channel_threads",
  "contacts",
  "tags",
  "chatbot_records",
  "chatbot_words",
  "tool_execution_records",
  "webhook_delivery_segments",
  "chatbot_record_segments",
  "tool_record_segments",
  "usage_hourly",
  "usage_hourly_tests",
  "usage_hourly_contacts",
  "usage_daily_members",
  "usage_daily_chatbots",
  "organization_usage",
  "idempotency_keys",
  "attachments",
  "uploads",
  "purges",
];

/**
 * Deletes an organization's data-plane rows by pages, its conversations first (named to forget), before its `DB`
 * row goes: what its foreign keys' cascades delete today. Its search terms have their own delete
 * (conversation/search-terms.ts `deleteOrganizationTerms`). Its uploads' objects go after its `DB` row, by their
 * key's prefix (organizations.ts `deleteOrganization`).
 */
export async function deleteOrganizationData(data: Db, organizationId: string, now = Date.now(), size = PAGE) {
  const d1 = client(data);
  for (const page of [
    conversationsBy("organization_id"),
    ...ORGANIZATION_TABLES.map((t) => deleteBy(t, "organization_id")),
  ])
    while ((await page(d1, organizationId, size, now)) >= size);
}
