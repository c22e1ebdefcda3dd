// The terms conversations are searched by (`conversation_terms`; docs/decisions.md, "Conversation search by terms",
// "Organization shards"), kept in the organization's shard (services/shards): each stored message's terms go into
// `DB`'s `conversation_terms_pending` in the batch that stores it (an outbox, atomic with the message), the
// every-minute cron ships those rows to the organization's shard and folds each shard's pending rows into its
// `conversation_terms` many conversations at a time; older messages are indexed by housekeeping in pages, and terms
// no message has brought for 90 days are removed. `DB`'s own `conversation_terms` (from before the shards) is read
// and expired, no longer written.
import type { Bindings } from "../../env";
import { sqlStatement } from "../../db/prepared";
import { lazy } from "../../lib/lazy";
import { searchTerms } from "../knowledge/retrieval/terms";
import { allShards, organizationPlacements, shardDb } from "../shards";
import type { MessageEffect } from "./effects";

/** A term no message of the conversation has brought for this long is removed (the search reaches back as far). */
export const TERMS_KEPT_MS = 90 * 86_400_000;
/** A message brings at most this many distinct terms (the first ones): a pasted document is not a conversation. */
const MAX_TERMS_PER_MESSAGE = 1000;

/** A uuid as `conversation_terms` keeps it, its 16 bytes, from SQL text `param`. */
export const uuidBytes = (param: string) => `unhex(replace(${param}, '-', ''))`;
/** A `conversation_terms` row's conversation as the uuid text `conversations.id` holds. */
export const CONVERSATION_ID_TEXT =
  "lower(substr(hex(conversation_id), 1, 8) || '-' || substr(hex(conversation_id), 9, 4) || '-' || " +
  "substr(hex(conversation_id), 13, 4) || '-' || substr(hex(conversation_id), 17, 4) || '-' || " +
  "substr(hex(conversation_id), 21))";

/** A message's terms as `conversation_terms_pending` keeps them (a JSON array), or null when it has none. */
export function pendingTerms(content: string): string | null {
  const terms = searchTerms(content).slice(0, MAX_TERMS_PER_MESSAGE);
  return terms.length ? JSON.stringify(terms) : null;
}

const INSERT_PENDING =
  "INSERT INTO conversation_terms_pending (organization_id, conversation_id, at, terms) VALUES (?1, ?2, ?3, ?4)";

/**
 * Each stored message's terms, private notes too (`notes`: the search is the team's, over the team's
 * own text), as one row of `DB`'s `conversation_terms_pending` in the message's own batch: an appended row,
 * where writing `conversation_terms` there cost a page write per term (docs/decisions.md,
 * "Conversation search by terms"), and the outbox of the organization's shard, written with the message or not at
 * all, at no round trip of the turn's (shipped by shipPendingTerms). The search reads it at once.
 */
export const searchTermsEffect: MessageEffect = {
  name: "search terms",
  notes: true,
  inBatch(db, _conversation, message) {
    const terms = pendingTerms(message.content);
    if (!terms) return null;
    return sqlStatement(db, INSERT_PENDING).bind(
      message.organizationId,
      message.conversationId,
      message.createdAt,
      terms,
    );
  },
};

/**
 * Pending rows up to ?1 into `conversation_terms`: each (organization, term, conversation) once, at its
 * newest message's time, in key order (new conversations' rows go at the end of each term's range, so
 * the transaction writes each term's last page once for all of them). Folding a row twice (shipped twice, or copied
 * by a move) changes nothing.
 */
const FOLD =
  "INSERT INTO conversation_terms (organization_id, term, conversation_id, last_at) " +
  `SELECT ${uuidBytes("p.organization_id")}, t.value, ${uuidBytes("p.conversation_id")}, max(p.at) ` +
  "FROM conversation_terms_pending AS p, json_each(p.terms) AS t WHERE p.id <= ?1 " +
  "GROUP BY 1, 2, 3 ORDER BY 1, 2, 3 " +
  "ON CONFLICT (organization_id, term, conversation_id) DO UPDATE SET last_at = max(last_at, excluded.last_at)";

/**
 * Moves a shard's pending terms into its `conversation_terms`, `size` messages a transaction (the fold and the
 * delete of what it folded, so a row is folded once or stays), at most `pages` a run. Run on each shard by the
 * every-minute cron (runTermsCron) and by housekeeping. Returns whether rows are left.
 */
export async function foldPendingTerms(d1: D1Database, { pages = 50, size = 2000 } = {}): Promise<boolean> {
  for (let page = 0; page < pages; page++) {
    const head = await d1
      .prepare(
        "SELECT max(id) AS last, count(*) AS rows " +
          "FROM (SELECT id FROM conversation_terms_pending ORDER BY id LIMIT ?1)",
      )
      .bind(size)
      .first<{ last: number | null; rows: number }>();
    if (head?.last == null) return false;
    await d1.batch([
      d1.prepare(FOLD).bind(head.last),
      d1.prepare("DELETE FROM conversation_terms_pending WHERE id <= ?1").bind(head.last),
    ]);
    if (head.rows < size) return false;
  }
  return true;
}

type PendingRow = [organizationId: string, conversationId: string, at: number, terms: string];

/** Pending rows from a JSON array of [organization, conversation, at, terms]. */
const INSERT_PENDING_ROWS =
  "INSERT INTO conversation_terms_pending (organization_id, conversation_id, at, terms) " +
  "SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3 FROM json_each(?1)";
/** The most JSON one statement of INSERT_PENDING_ROWS carries (D1 takes a value of up to 2 MB). */
const MAX_STATEMENT_BYTES = 500_000;

/** `rows` as INSERT_PENDING_ROWS statements on `d1`, each under MAX_STATEMENT_BYTES. */
function insertPending(d1: D1Database, rows: PendingRow[]): D1PreparedStatement[] {
  const statements: D1PreparedStatement[] = [];
  let chunk: PendingRow[] = [];
  let bytes = 0;
  const flush = () => {
    if (chunk.length) statements.push(d1.prepare(INSERT_PENDING_ROWS).bind(JSON.stringify(chunk)));
    [chunk, bytes] = [[], 0];
  };
  for (const row of rows) {
    if (bytes + row[3].length > MAX_STATEMENT_BYTES) flush();
    chunk.push(row);
    bytes += row[3].length + 100;
  }
  flush();
  return statements;
}

/**
 * Ships `DB`'s pending terms (the outbox the message batches write) to each organization's shard, both shards of one
 * being moved (services/shards/move.ts), `size` messages a page, at most `pages` a run: a page is written to its
 * shards, then deleted from `DB`, so a failed shard write leaves it for the next run (the search reads it in `DB`
 * meanwhile) and one shipped twice is folded once. Rows of a deleted organization are dropped. Returns whether rows
 * are left.
 */
export async function shipPendingTerms(env: Bindings, { pages = 20, size = 500 } = {}): Promise<boolean> {
  for (let page = 0; page < pages; page++) {
    const { results } = await env.DB.prepare(
      "SELECT id, organization_id, conversation_id, at, terms FROM conversation_terms_pending ORDER BY id LIMIT ?1",
    )
      .bind(size)
      .all<{ id: number; organization_id: string; conversation_id: string; at: number; terms: string }>();
    if (!results.length) return false;
    // Read for each page: a move started meanwhile writes to both shards from its next page on.
    const placements = await organizationPlacements(env, [...new Set(results.map((r) => r.organization_id))]);
    const byShard = new Map<string, PendingRow[]>();
    for (const r of results)
      for (const shard of placements.get(r.organization_id)?.writes ?? []) {
        const rows = byShard.get(shard) ?? byShard.set(shard, []).get(shard)!;
        rows.push([r.organization_id, r.conversation_id, r.at, r.terms]);
      }
    await Promise.all(
      [...byShard].map(([shard, rows]) => {
        const d1 = shardDb(env, shard);
        return d1.batch(insertPending(d1, rows));
      }),
    );
    await env.DB.prepare("DELETE FROM conversation_terms_pending WHERE id <= ?1")
      .bind(results[results.length - 1].id)
      .run();
    if (results.length < size) return false;
  }
  return true;
}

/**
 * The every-minute cron's work (src/index.ts): `DB`'s pending terms shipped to the shards, moves between shards and
 * of data planes advanced (services/shards/move.ts, data-plane-move.ts), then each shard's pending terms folded.
 */
const shardMoves = lazy(() => import("../shards/move"));
const dataPlaneMoves = lazy(() => import("../shards/data-plane-move"));

export async function runTermsCron(env: Bindings, now = Date.now()) {
  await shipPendingTerms(env);
  const [{ advanceMoves }, { advanceDataPlaneMoves }] = await Promise.all([shardMoves(), dataPlaneMoves()]);
  await advanceMoves(env, now);
  await advanceDataPlaneMoves(env, now);
  await Promise.all(allShards(env).map(({ db }) => foldPendingTerms(db)));
}

type Backfill = { after: number; through: number };

/**
 * Indexes messages stored before migration 0029 (rowids up to `through`, the last one then), at most
 * `pages` pages of `size` messages a run: each page's pending terms (folded as the pipeline's are) and
 * the cursor in one batch, so a run that stops leaves the cursor where its last batch did, and a page
 * indexed twice only sets `last_at` again. Returns whether messages are left.
 */
export async function backfillSearchTerms(d1: D1Database, { pages = 20, size = 500 } = {}): Promise<boolean> {
  const row = await d1
    .prepare("SELECT position FROM conversation_terms_cursors WHERE id = 'backfill'")
    .first<{ position: string }>();
  if (!row) return false;
  let { after, through } = JSON.parse(row.position) as Backfill;
  for (let page = 0; page < pages && after < through; page++) {
    const { results } = await d1
      .prepare(
        "SELECT rowid, organization_id, conversation_id, content, created_at FROM messages " +
          "WHERE rowid > ?1 AND rowid <= ?2 ORDER BY rowid LIMIT ?3",
      )
      .bind(after, through, size)
      .all<{ rowid: number; organization_id: string; conversation_id: string; content: string; created_at: number }>();
    const next = results.length ? results[results.length - 1].rowid : through;
    const rows = results.flatMap((m) => {
      const terms = pendingTerms(m.content);
      return terms ? [[m.organization_id, m.conversation_id, m.created_at, terms]] : [];
    });
    await d1.batch([
      d1.prepare(INSERT_PENDING_ROWS).bind(JSON.stringify(rows)),
      d1
        .prepare("UPDATE conversation_terms_cursors SET position = ?1 WHERE id = 'backfill'")
        .bind(JSON.stringify({ after: next, through })),
    ]);
    after = next;
  }
  return after < through;
}

/** A row's key, its ids in hex. */
type Key = [organizationId: string, term: string, conversationId: string];
const KEY = "(organization_id, term, conversation_id)";
const START: Key = ["", "", ""];

/** An organization's terms and pending terms in one database (`DB`, a shard), as statements of one batch. */
export const organizationTermsDeletes = (d1: D1Database, organizationId: string) => [
  d1.prepare(`DELETE FROM conversation_terms WHERE organization_id = ${uuidBytes("?1")}`).bind(organizationId),
  d1.prepare("DELETE FROM conversation_terms_pending WHERE organization_id = ?1").bind(organizationId),
];

/**
 * Removes an organization's terms, pending ones too (they reference nothing: see the tables in db/schema), from `DB`
 * and from every shard (a move may have left rows on either).
 */
export const deleteOrganizationTerms = (env: Bindings, organizationId: string) =>
  Promise.all(
    [env.DB, ...allShards(env).map((s) => s.db)].map((d1) => d1.batch(organizationTermsDeletes(d1, organizationId))),
  );

/**
 * Removes terms whose `last_at` is older than TERMS_KEPT_MS at `now`. The table has no index on
 * `last_at` (one would double it), so a sweep walks it in key order, `pages` ranges of `size` rows a
 * run, from where the last run stopped (the `retention` cursor), starting over at the end: a term goes
 * at most one sweep after it expired. Returns the rows removed.
 */
export async function expireSearchTerms(
  d1: D1Database,
  now: number,
  { pages = 10, size = 5000 } = {},
): Promise<number> {
  const row = await d1
    .prepare("SELECT position FROM conversation_terms_cursors WHERE id = 'retention'")
    .first<{ position: string }>();
  let from = row ? (JSON.parse(row.position) as Key) : START;
  const before = now - TERMS_KEPT_MS;
  let removed = 0;
  let wrapped = false;
  for (let page = 0; page < pages; page++) {
    const end = await d1
      .prepare(
        "SELECT hex(organization_id), term, hex(conversation_id) FROM conversation_terms " +
          `WHERE ${KEY} > (unhex(?1), ?2, unhex(?3)) ORDER BY ${KEY.slice(1, -1)} LIMIT 1 OFFSET ?4`,
      )
      .bind(...from, size - 1)
      .raw<Key>();
    const to = end[0] ?? null;
    const [deleted] = await d1.batch([
      d1
        .prepare(
          `DELETE FROM conversation_terms WHERE ${KEY} > (unhex(?1), ?2, unhex(?3)) ` +
            (to ? `AND ${KEY} <= (unhex(?5), ?6, unhex(?7)) ` : "") +
            "AND last_at < ?4",
        )
        .bind(...from, before, ...(to ?? [])),
      d1
        .prepare(
          "INSERT INTO conversation_terms_cursors (id, position) VALUES ('retention', ?1) " +
            "ON CONFLICT (id) DO UPDATE SET position = excluded.position",
        )
        .bind(JSON.stringify(to ?? START)),
    ]);
    removed += deleted.meta.changes;
    if (to) from = to;
    else if (wrapped) break;
    else [from, wrapped] = [START, true]; // the end: the sweep starts over, once a run
  }
  return removed;
}
