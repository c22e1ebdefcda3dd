// The terms conversations are searched by (`conversation_terms`, migration 0029; docs/decisions.md,
// "Conversation search by terms"): written with each message by the pipeline, older messages indexed
// by housekeeping in pages, and terms no message has brought for 90 days removed.
import type { Db } from "../../env";
import { client } from "../../db/prepared";
import { searchTerms } from "../knowledge/retrieval/terms";
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

const UPSERT =
  "INSERT INTO conversation_terms (organization_id, term, conversation_id, last_at) " +
  `SELECT ${uuidBytes("?1")}, value, ${uuidBytes("?2")}, ?3 FROM json_each(?4) WHERE true ` +
  "ON CONFLICT (organization_id, term, conversation_id) DO UPDATE SET last_at = max(last_at, excluded.last_at)";

/** One statement storing a message's terms for its conversation; null when it has none. */
function termsStatement(
  d1: D1Database,
  message: { organizationId: string; conversationId: string; content: string; createdAt: number },
): D1PreparedStatement | null {
  const terms = searchTerms(message.content).slice(0, MAX_TERMS_PER_MESSAGE);
  if (!terms.length) return null;
  return d1
    .prepare(UPSERT)
    .bind(message.organizationId, message.conversationId, message.createdAt, JSON.stringify(terms));
}

/**
 * The message's terms, in its batch: stored with it or not at all. Private notes too (`notes`): the
 * search is the team's, over the team's own text.
 */
export const searchTermsEffect: MessageEffect = {
  name: "search terms",
  notes: true,
  inBatch: (db: Db, _conversation, message) => termsStatement(client(db), message),
};

type Backfill = { after: number; through: number };

/**
 * Indexes messages stored before migration 0029 (rowids up to `through`, the last one then), at most
 * `pages` pages of `size` messages a run, each page's terms and the cursor in one batch: a run that
 * stops leaves the cursor where its last batch did, and a page indexed twice only sets `last_at`
 * again. Returns whether messages are left.
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
    const statements = results.flatMap(
      (m) =>
        termsStatement(d1, {
          organizationId: m.organization_id,
          conversationId: m.conversation_id,
          content: m.content,
          createdAt: m.created_at,
        }) ?? [],
    );
    statements.push(
      d1
        .prepare("UPDATE conversation_terms_cursors SET position = ?1 WHERE id = 'backfill'")
        .bind(JSON.stringify({ after: next, through })),
    );
    await d1.batch(statements);
    after = next;
  }
  return after < through;
}

/** A row's key, its ids in hex. */
type Key = [organizationId: string, term: string, conversationId: string];
const KEY = "(organization_id, term, conversation_id)";
const START: Key = ["", "", ""];

/** Removes an organization's terms (they reference nothing: see the table in db/schema). */
export const deleteOrganizationTerms = (d1: D1Database, organizationId: string) =>
  d1
    .prepare(`DELETE FROM conversation_terms WHERE organization_id = ${uuidBytes("?1")}`)
    .bind(organizationId)
    .run();

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
