// The terms conversations are searched by (`conversation_terms`, migration 0029; docs/decisions.md,
// "Conversation search by terms"): sent by the pipeline to the `conversation-terms` queue once a
// message is stored and written there many messages at a time, older messages indexed by housekeeping
// in pages, and terms no message has brought for 90 days removed.
import type { Bindings } from "../../env";
import { searchTerms } from "../knowledge/retrieval/terms";
import type { MessageEffect, StoredBatch } from "./effects";

/** A term no message of the conversation has brought for this long is removed (the search reaches back as far). */
export const TERMS_KEPT_MS = 90 * 86_400_000;
/** A message brings at most this many distinct terms (the first ones): a pasted document is not a conversation. */
const MAX_TERMS_PER_MESSAGE = 1000;
/** A queue message carries at most this many terms (64 characters at most each: well under a message's 128 kB). */
const TERMS_PER_JOB = 200;

/** A uuid as `conversation_terms` keeps it, its 16 bytes, from SQL text `param`. */
export const uuidBytes = (param: string) => `unhex(replace(${param}, '-', ''))`;
/** A `conversation_terms` row's conversation as the uuid text `conversations.id` holds. */
export const CONVERSATION_ID_TEXT =
  "lower(substr(hex(conversation_id), 1, 8) || '-' || substr(hex(conversation_id), 9, 4) || '-' || " +
  "substr(hex(conversation_id), 13, 4) || '-' || substr(hex(conversation_id), 17, 4) || '-' || " +
  "substr(hex(conversation_id), 21))";

/** Terms a conversation's messages brought, the newest of them at `at`: one message of the queue. */
export interface TermsJob {
  organizationId: string;
  conversationId: string;
  at: number;
  terms: string[];
}

export const isTermsJob = (body: unknown): body is TermsJob => {
  const job = body as Partial<TermsJob> | null;
  return (
    typeof job?.organizationId === "string" &&
    typeof job.conversationId === "string" &&
    typeof job.at === "number" &&
    Array.isArray(job.terms) &&
    job.terms.every((t) => typeof t === "string")
  );
};

const UPSERT =
  "INSERT INTO conversation_terms (organization_id, term, conversation_id, last_at) " +
  `SELECT ${uuidBytes("?1")}, value, ${uuidBytes("?2")}, ?3 FROM json_each(?4) ` +
  // An organization deleted while its terms were queued gets none back.
  "WHERE EXISTS (SELECT 1 FROM organizations WHERE id = ?1) " +
  "ON CONFLICT (organization_id, term, conversation_id) DO UPDATE SET last_at = max(last_at, excluded.last_at)";

/**
 * A statement a job, to run many in one batch: that is what makes them cheap. Conversation ids are
 * time-ordered (uuidv7), so new rows land at the end of each term's range, and one transaction writes
 * each term's last page once for all its conversations rather than once per message.
 */
export const termsStatements = (d1: D1Database, jobs: TermsJob[]) =>
  jobs.map((job) => d1.prepare(UPSERT).bind(job.organizationId, job.conversationId, job.at, JSON.stringify(job.terms)));

/** The jobs for `messages`: each conversation's distinct terms, in queue-sized parts. */
export function termsJobs(
  messages: { organizationId: string; conversationId: string; content: string; createdAt: number }[],
): TermsJob[] {
  const byConversation = new Map<string, TermsJob>();
  for (const { organizationId, conversationId, content, createdAt } of messages) {
    const terms = searchTerms(content).slice(0, MAX_TERMS_PER_MESSAGE);
    if (!terms.length) continue;
    const job = byConversation.get(conversationId) ?? { organizationId, conversationId, at: createdAt, terms: [] };
    job.at = Math.max(job.at, createdAt);
    job.terms.push(...terms);
    byConversation.set(conversationId, job);
  }
  return [...byConversation.values()].flatMap((job) => {
    const terms = [...new Set(job.terms)];
    const jobs: TermsJob[] = [];
    for (let i = 0; i < terms.length; i += TERMS_PER_JOB)
      jobs.push({ ...job, terms: terms.slice(i, i + TERMS_PER_JOB) });
    return jobs;
  });
}

/** The jobs of one queue message: up to ~96 kB of them (a message carries at most 128 kB). */
export interface TermsMessage {
  jobs: TermsJob[];
}
const MESSAGE_BYTES = 96_000;
const encoder = new TextEncoder();

/**
 * Hands the jobs to the queue, as few messages as fit them; when it refuses them, writes them here
 * instead, so that a stored message is always searchable (a failure of that write too is the caller's).
 */
export async function sendTerms(env: Pick<Bindings, "TERMS_QUEUE" | "DB">, jobs: TermsJob[]) {
  const messages: TermsMessage[] = [];
  let bytes = Infinity;
  for (const job of jobs) {
    const size = encoder.encode(JSON.stringify(job)).length;
    if (bytes + size > MESSAGE_BYTES) {
      messages.push({ jobs: [] });
      bytes = 0;
    }
    messages[messages.length - 1].jobs.push(job);
    bytes += size;
  }
  try {
    for (const body of messages) await env.TERMS_QUEUE.send(body);
  } catch (err) {
    console.warn(
      JSON.stringify({ level: "warn", message: "terms queue refused; terms written directly", error: String(err) }),
    );
    await env.DB.batch(termsStatements(env.DB, jobs));
  }
}

/**
 * The stored messages' terms, private notes too (`notes`: the search is the team's, over the team's
 * own text), sent to the queue after the turn: in the message's own batch they cost the completion
 * path a page write per term (docs/decisions.md, "Conversation search by terms").
 */
export const searchTermsEffect: MessageEffect = {
  name: "search terms",
  notes: true,
  stored: (batch: StoredBatch) => {
    const jobs = termsJobs(batch.messages.map(({ message }) => message));
    if (jobs.length) batch.waitUntil(sendTerms(batch.env, jobs));
  },
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
    const jobs = termsJobs(
      results.map((m) => ({
        organizationId: m.organization_id,
        conversationId: m.conversation_id,
        content: m.content,
        createdAt: m.created_at,
      })),
    );
    await d1.batch([
      ...termsStatements(d1, jobs),
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
