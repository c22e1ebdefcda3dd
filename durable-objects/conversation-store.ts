// The conversation object's own message store (docs/decisions.md, "The conversation object's message store",
// "Messages in the conversation object"): its SQLite schema, migrated by the object itself, holding the conversation's
// messages. D1 holds a message only on its way here (the worker's first turn; messages stored before the object kept
// them): the store copies such rows on its next read and deletes them from D1.
import { getTableColumns } from "drizzle-orm";
import { messages } from "../src/db/schema";
import { rowMapper } from "../src/db/prepared";
import type { Cursor } from "../src/lib/pagination";
import type { MessageRow, NewMessage } from "../src/services/conversations";
import { logWarn } from "../src/lib/log";

/**
 * The object's schema, one entry per version, each a list of statements applied in one transaction. An entry that
 * has shipped is never edited: a change is a new entry. `messages` has D1's columns (migrations/), with the same types
 * and defaults, so a row copied from D1 is stored as D1 holds it; `copies` says how far each conversation's D1
 * messages are known to be here (see MessageStore.through).
 */
export const MIGRATIONS: readonly (readonly string[])[] = [
  [
    `CREATE TABLE messages (
      id text PRIMARY KEY NOT NULL,
      organization_id text NOT NULL,
      conversation_id text NOT NULL,
      sequence integer NOT NULL,
      type text NOT NULL,
      sender_type text NOT NULL,
      sender_id text,
      sender_name text DEFAULT '' NOT NULL,
      sender_avatar text,
      content text DEFAULT '' NOT NULL,
      content_payload text,
      attachments text,
      citations text,
      citation_nodes text,
      canvas text,
      query_metadata text,
      metadata text,
      skill_ids text,
      tool_ids text,
      feedback text,
      words_count integer DEFAULT 0 NOT NULL,
      unanswered integer DEFAULT false NOT NULL,
      private integer DEFAULT false NOT NULL,
      model_id text,
      input_tokens integer,
      output_tokens integer,
      created_at integer NOT NULL
    )`,
    "CREATE UNIQUE INDEX messages_conversation_seq_uq ON messages (conversation_id, sequence)",
    "CREATE TABLE copies (conversation_id text PRIMARY KEY NOT NULL, through integer NOT NULL)",
  ],
  // The object writes `feedback` and `metadata` after a message is stored (ratings, channel delivery states) and
  // reads stop taking them from D1: every conversation is copied once more, its rows taking D1's current values.
  // `unsettled`: messages whose columns the object was writing in D1 (while D1 was the reference; none is added now).
  [
    "DELETE FROM copies",
    "CREATE TABLE unsettled (message_id text PRIMARY KEY NOT NULL, conversation_id text NOT NULL)",
  ],
  // The object's own messages go here only, not to D1: once it has stored one, D1 gets none of the conversation's
  // again (`drained`), and a read asks D1 nothing (see MessageStore.sync).
  ["ALTER TABLE copies ADD COLUMN drained integer DEFAULT 0 NOT NULL"],
];

/**
 * Brings the object's SQLite schema to the last version of `migrations`, each version once (its number is kept in
 * `schema_version`, written in the version's transaction). Returns the version the storage is at. Migrations only add
 * (tables, nullable or defaulted columns, indexes), so code older than its storage (a deploy rolled back) works with
 * it and leaves it as it is.
 */
export function migrate(storage: DurableObjectStorage, migrations = MIGRATIONS): number {
  const sql = storage.sql;
  sql.exec(
    "CREATE TABLE IF NOT EXISTS schema_version (id integer PRIMARY KEY CHECK (id = 1), version integer NOT NULL)",
  );
  const [stored] = sql.exec<{ version: number }>("SELECT version FROM schema_version").toArray();
  let version = stored?.version ?? 0;
  for (; version < migrations.length; version++) {
    const statements = migrations[version];
    storage.transactionSync(() => {
      for (const statement of statements) sql.exec(statement);
      sql.exec(
        "INSERT INTO schema_version (id, version) VALUES (1, ?) " +
          "ON CONFLICT (id) DO UPDATE SET version = excluded.version",
        version + 1,
      );
    });
  }
  return version;
}

const columns = Object.entries(getTableColumns(messages));
/** D1's column names, in the schema's order: what a copy reads and the store writes. */
const names = columns.map(([, column]) => column.name);
const list = names.join(", ");
const toRow = rowMapper(messages);

/** How many D1 messages one read copies at a time. */
export const COPY_PAGE = 100;

/** A page of the message list over the conversation's sequence: its condition, its order and its size. */
interface PageWindow {
  after: string;
  order: "ASC" | "DESC";
  bound: number[];
  limit: number;
}

/**
 * The window of `GET /messages/` over a conversation's sequence, newest first, as `cursorWindow` (db/paginate.ts)
 * made it for the D1 read: `pageSize + 1` rows past the cursor, read backwards for a "p" cursor (cursorResponse puts
 * them back in order).
 */
function pageWindow(cursor: Cursor | null, pageSize: number): PageWindow {
  const ascending = cursor?.d === "p";
  return {
    after: cursor ? (ascending ? "AND sequence > ?" : "AND sequence < ?") : "",
    order: ascending ? "ASC" : "DESC",
    bound: cursor ? [Number(cursor.k)] : [],
    limit: pageSize + 1,
  };
}

type Raw = Record<string, SqlStorageValue>;

/** Which message `MessageStore.latest` takes: the latest one of this type, of this sender, from a platform chat. */
export interface LatestFilter {
  type?: "incoming";
  senderType?: "contact";
  /** From a messaging platform's chat (its `metadata.channel.threadKey`). */
  threadKey?: boolean;
  /** One the visitor sees (not a private note), as `visible` reads them: what they answer is the latest of these. */
  visible?: boolean;
}

/** One message a read looks up: by id, or the latest one a filter takes (see Conversation.lookupMessages). */
export type MessageLookup = { id: string } | { latest: LatestFilter };

/** Which of the visible messages a read takes (see MessageStore.visible). */
export interface VisibleWindow {
  /** Those after this message, oldest first. */
  afterId?: string;
  /** Those before this sequence. */
  before?: number;
  /** Newest first (otherwise oldest first). */
  newest?: boolean;
  limit: number;
}

const values = `(${list}) VALUES (${names.map(() => "?").join(", ")})`;
/** A row copied from D1, or one the object stored: a row already here (copied before, rated since) is as new or newer;
 * one of the same sequence is the conversation's (see MessageStore.sync). */
const insert = `INSERT OR IGNORE INTO messages ${values}`;

/**
 * Deletes a conversation's D1 messages copied here (`sequence` up to ?2), but those the search terms' backfill has
 * still to index (services/conversation/search-terms.ts, backfillSearchTerms: rowids after its cursor up to its
 * `through`): the mover of the housekeeping cron takes those once it is done.
 */
const DELETE_COPIED =
  "DELETE FROM messages WHERE conversation_id = ?1 AND sequence <= ?2 AND NOT EXISTS (" +
  "SELECT 1 FROM conversation_terms_cursors c WHERE c.id = 'backfill' " +
  "AND messages.rowid > json_extract(c.position, '$.after') " +
  "AND messages.rowid <= json_extract(c.position, '$.through'))";

/**
 * One conversation object's messages in its SQLite storage, the reference for them (docs/decisions.md, "Messages in
 * the conversation object"): the object stores its messages here once their D1 batch (figures, the conversation's
 * row, effects) is stored, and writes the columns written later (`feedback`, `metadata`) here alone. Messages another
 * writer stored in D1 (the worker's first turn) or stored before this store existed are copied by the next read
 * (`sync`) and then deleted from D1; the housekeeping cron takes those of conversations no one reads (`takeOver`).
 */
export class MessageStore {
  /** `through` by conversation as stored, read once: only this object writes its storage. */
  #through = new Map<string, number>();
  /** Conversations whose D1 messages are all here and which D1 gets no more of (see `put`). */
  #drained = new Set<string>();

  #migrated = false;

  constructor(private readonly storage: DurableObjectStorage) {}

  /**
   * The storage's SQL, its schema brought up to date on first use: an object that never stores a message (the spare
   * started ahead of every new conversation, whose first turn the worker may answer alone) creates no tables.
   * Synchronous, so nothing else runs on the object in between.
   */
  private get sql(): SqlStorage {
    if (!this.#migrated) {
      migrate(this.storage);
      this.#migrated = true;
    }
    return this.storage.sql;
  }

  /**
   * Copies the conversation's D1 messages past `through` (every read's first step) and deletes them from D1 (see
   * DELETE_COPIED): one D1 query when there are none, none at all once the object has stored a message of its own
   * (`drained`). A row whose sequence is here already is a message the object answered in its place (a first turn's
   * worker taken for dead, see Conversation.holdForFirstTurn): the conversation's own is kept. `organizationId`: only
   * that organization's rows (a read for another organization, which finds nothing, moves nothing either). `d1`: the
   * organization's data plane, where the rows on their way here are.
   */
  async sync(d1: D1Database, conversationId: string, organizationId?: string): Promise<void> {
    if (this.#isDrained(conversationId)) return;
    const copied = await this.#pull(d1, conversationId, organizationId);
    if (copied) await this.#deleteCopied(d1, conversationId);
  }

  /** `sync`, and D1's copied rows deleted even when none was copied now (the housekeeping cron's mover). */
  async takeOver(d1: D1Database, conversationId: string): Promise<void> {
    await this.#pull(d1, conversationId);
    await this.#deleteCopied(d1, conversationId);
  }

  /** Copies D1's rows past `through` here (of `organizationId` only, when given); whether there were any. */
  async #pull(d1: D1Database, conversationId: string, organizationId?: string): Promise<boolean> {
    const unsettled = this.sql
      .exec<{ id: string }>("SELECT message_id AS id FROM unsettled WHERE conversation_id = ?", conversationId)
      .toArray()
      .map((r) => r.id);
    // Columns unsettled only after an instance died between a D1 write of them and its own, while the object still
    // wrote them in D1 first: D1's value is the newer one.
    const [copied, settled] = unsettled.length
      ? await d1.batch<Raw>([this.#d1CopyPage(d1, conversationId, organizationId), this.#d1Columns(d1, unsettled)])
      : [await this.#d1CopyPage(d1, conversationId, organizationId).all<Raw>()];
    for (const { id, feedback, metadata } of settled?.results ?? []) {
      this.sql.exec("UPDATE messages SET feedback = ?, metadata = ? WHERE id = ?", feedback, metadata, id);
    }
    for (const id of unsettled) this.sql.exec("DELETE FROM unsettled WHERE message_id = ?", id);
    let page = copied.results;
    const any = page.length > 0;
    this.#copy(conversationId, page);
    while (page.length === COPY_PAGE) {
      page = (await this.#d1CopyPage(d1, conversationId, organizationId).all<Raw>()).results;
      this.#copy(conversationId, page);
    }
    return any;
  }

  /** Deletes D1's copied rows, once the copy is durable (the object's output gate holds the D1 call till then). */
  async #deleteCopied(d1: D1Database, conversationId: string): Promise<void> {
    await d1.prepare(DELETE_COPIED).bind(conversationId, this.through(conversationId)).run();
  }

  /**
   * `pageSize + 1` of the conversation's messages from the cursor on, in the message list's order (see pageWindow);
   * none when the conversation is not the organization's. Read after `sync`, as every read below.
   */
  list(organizationId: string, conversationId: string, cursor: Cursor | null, pageSize: number): MessageRow[] {
    return this.#page(organizationId, conversationId, pageWindow(cursor, pageSize));
  }

  /** The conversation's message `id`; undefined when it is not one of the organization's conversation's. */
  find(organizationId: string, conversationId: string, id: string): MessageRow | undefined {
    return this.sql
      .exec<Raw>(
        `SELECT ${list} FROM messages WHERE id = ? AND conversation_id = ? AND organization_id = ?`,
        id,
        conversationId,
        organizationId,
      )
      .toArray()
      .map(toRow)[0];
  }

  /** The conversation's latest message that `filter` takes; undefined when none (or not the organization's). */
  latest(organizationId: string, conversationId: string, filter: LatestFilter): MessageRow | undefined {
    const conditions = [
      filter.type ? "AND type = ?" : "",
      filter.senderType ? "AND sender_type = ?" : "",
      filter.threadKey ? "AND json_extract(metadata, '$.channel.threadKey') IS NOT NULL" : "",
      filter.visible ? "AND private = 0" : "",
    ].join(" ");
    const values = [filter.type, filter.senderType].filter((v) => v !== undefined);
    return this.sql
      .exec<Raw>(
        `SELECT ${list} FROM messages WHERE conversation_id = ? AND organization_id = ? ${conditions} ` +
          "ORDER BY sequence DESC LIMIT 1",
        conversationId,
        organizationId,
        ...values,
      )
      .toArray()
      .map(toRow)[0];
  }

  /**
   * Up to `limit` of the messages a visitor may read (all but private notes), oldest first from the start, from
   * after message `afterId` (none when it is not the conversation's), or newest first before sequence `before`.
   * None when the conversation is not the organization's.
   */
  visible(organizationId: string, conversationId: string, window: VisibleWindow): MessageRow[] {
    let after = "";
    const bound: number[] = [];
    if (window.afterId !== undefined) {
      const from = this.find(organizationId, conversationId, window.afterId);
      if (!from) return [];
      after = "AND sequence > ?";
      bound.push(from.sequence);
    } else if (window.before !== undefined) {
      after = "AND sequence < ?";
      bound.push(window.before);
    }
    return this.sql
      .exec<Raw>(
        `SELECT ${list} FROM messages WHERE conversation_id = ? AND organization_id = ? AND private = 0 ${after} ` +
          `ORDER BY sequence ${window.newest ? "DESC" : "ASC"} LIMIT ?`,
        conversationId,
        organizationId,
        ...bound,
        window.limit,
      )
      .toArray()
      .map(toRow);
  }

  /**
   * Every D1 message of the conversation with a sequence up to this one is here (0: none known). Raised by a copy up
   * to the last row it read, and by the object's own write of the next sequence; a message stored in D1 but not here
   * (the worker's first turn, an instance that died between its D1 batch and its local write) stays above it, so the
   * next read copies it.
   */
  through(conversationId: string): number {
    let through = this.#through.get(conversationId);
    if (through === undefined) {
      const [row] = this.sql
        .exec<{ through: number }>("SELECT through FROM copies WHERE conversation_id = ?", conversationId)
        .toArray();
      through = row?.through ?? 0;
      this.#through.set(conversationId, through);
    }
    return through;
  }

  /**
   * A message the object stored (its D1 batch succeeded), with the schema's defaults filled in. From then on D1 gets
   * none of the conversation's messages: the object loaded it (copying D1's) before, and is its only writer since.
   */
  put(row: NewMessage & { id: string; conversationId: string; sequence: number }): void {
    const values = columns.map(([key, column]) => {
      const given = row[key as keyof NewMessage];
      const value = given === undefined ? (column.defaultFn ? column.defaultFn() : (column.default ?? null)) : given;
      return value === null ? null : (column.mapToDriverValue(value) as SqlStorageValue);
    });
    this.sql.exec(insert, ...values);
    const through = this.through(row.conversationId);
    this.#raise(row.conversationId, Math.max(through, row.sequence), true);
  }

  /** A message by id, whatever its conversation (the object's own reads). */
  get(id: string): MessageRow | undefined {
    return this.sql.exec<Raw>(`SELECT ${list} FROM messages WHERE id = ?`, id).toArray().map(toRow)[0];
  }

  /** The conversation's latest `limit` messages, newest first, and its latest incoming one (the object's history). */
  history(conversationId: string, limit: number): { recent: MessageRow[]; question: MessageRow | undefined } {
    const recent = this.sql
      .exec<Raw>(
        `SELECT ${list} FROM messages WHERE conversation_id = ? ORDER BY sequence DESC LIMIT ?`,
        conversationId,
        limit,
      )
      .toArray()
      .map(toRow);
    const question = this.sql
      .exec<Raw>(
        `SELECT ${list} FROM messages WHERE conversation_id = ? AND type = 'incoming' ORDER BY sequence DESC LIMIT 1`,
        conversationId,
      )
      .toArray()
      .map(toRow)[0];
    return { recent, question };
  }

  /** The assistant's answers disliked since its last handoff message in the conversation (see rateAnswer). */
  dislikesSinceHandoff(conversationId: string): number {
    const [{ n }] = this.sql
      .exec<{ n: number }>(
        "SELECT count(*) AS n FROM messages WHERE conversation_id = ?1 AND sender_type = 'chatbot' " +
          "AND feedback = 'dislike' AND sequence > coalesce((SELECT max(sequence) FROM messages " +
          "WHERE conversation_id = ?1 AND sender_type = 'chatbot' " +
          "AND json_extract(content_payload, '$.handoff') IS NOT NULL), 0)",
        conversationId,
      )
      .toArray();
    return n;
  }

  /** A message's rating, written by the object once its figures are stored (Conversation.rate). */
  setFeedback(messageId: string, feedback: "like" | "dislike" | null): void {
    this.sql.exec("UPDATE messages SET feedback = ? WHERE id = ?", feedback, messageId);
  }

  /** A channel delivery's state (JSON) shown on its message, `metadata.channelDelivery`. */
  setDeliveryState(messageId: string, state: string): void {
    this.sql.exec(
      "UPDATE messages SET metadata = json_set(coalesce(metadata, '{}'), '$.channelDelivery', json(?)) WHERE id = ?",
      state,
      messageId,
    );
  }

  /** D1 rows read past `through(conversationId)` as it was when read (oldest first, a whole page of them). */
  #copy(conversationId: string, rows: Raw[]): void {
    for (const raw of rows) {
      const written = this.sql.exec(insert, ...names.map((name) => raw[name] ?? null)).rowsWritten;
      if (!written && !this.get(String(raw.id)))
        logWarn("handed-over message not taken", { conversationId, id: raw.id });
    }
    const last = rows.at(-1);
    if (last && Number(last.sequence) > this.through(conversationId))
      this.#raise(conversationId, Number(last.sequence));
  }

  /** A page of the conversation's messages in `window`'s order; none when it is not the organization's. */
  #page(organizationId: string, conversationId: string, window: PageWindow): MessageRow[] {
    return this.sql
      .exec<Raw>(
        `SELECT ${list} FROM messages WHERE conversation_id = ? AND organization_id = ? ${window.after} ` +
          `ORDER BY sequence ${window.order} LIMIT ?`,
        conversationId,
        organizationId,
        ...window.bound,
        window.limit,
      )
      .toArray()
      .map(toRow);
  }

  /** The conversation's D1 messages past `through` (of `organizationId` when given), oldest first, a page of them. */
  #d1CopyPage(d1: D1Database, conversationId: string, organizationId?: string) {
    return d1
      .prepare(
        `SELECT ${list} FROM messages WHERE conversation_id = ?1 AND sequence > ?2 ` +
          "AND (?3 IS NULL OR organization_id = ?3) ORDER BY sequence LIMIT ?4",
      )
      .bind(conversationId, this.through(conversationId), organizationId ?? null, COPY_PAGE);
  }

  /** The columns written after a message is stored, of `ids`, as D1 holds them. */
  #d1Columns(d1: D1Database, ids: string[]) {
    return d1
      .prepare("SELECT id, feedback, metadata FROM messages WHERE id IN (SELECT value FROM json_each(?))")
      .bind(JSON.stringify(ids));
  }

  #raise(conversationId: string, through: number, drained = false) {
    if (drained && this.#isDrained(conversationId) && through === this.through(conversationId)) return;
    this.#through.set(conversationId, through);
    if (drained) this.#drained.add(conversationId);
    this.sql.exec(
      "INSERT INTO copies (conversation_id, through, drained) VALUES (?, ?, ?) " +
        "ON CONFLICT (conversation_id) DO UPDATE SET through = excluded.through, " +
        "drained = max(drained, excluded.drained)",
      conversationId,
      through,
      Number(drained),
    );
  }

  #isDrained(conversationId: string): boolean {
    if (this.#drained.has(conversationId)) return true;
    const [row] = this.sql
      .exec<{ drained: number }>("SELECT drained FROM copies WHERE conversation_id = ?", conversationId)
      .toArray();
    if (row?.drained) this.#drained.add(conversationId);
    return Boolean(row?.drained);
  }
}
