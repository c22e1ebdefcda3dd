import { and, asc, isNull, lt, ne, or, sql } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { type chatbotRecordSegments, chatbotRecords } from "../../db/schema";
import { batch, sqlStatement } from "../../db/prepared";
import { uuidv7 } from "../../lib/ids";
import { hourName, putSegment, readSegmentLines } from "../../lib/r2";
import { hourOf } from "./buckets";

/**
 * Settled chatbot records leave D1 for R2 (docs/decisions.md, "Chatbot records in hourly R2 segments"): housekeeping
 * moves every record asked and answered more than SETTLED_AFTER_MS ago (`cutoffAt`), with no evaluation pending,
 * into NDJSON segments, one R2 object per move and (organization, assistant, hour of the record's `createdAt`), and
 * records each segment in `chatbot_record_segments` in the same D1 batch that deletes the moved rows. Readers
 * (statistics/records.ts) take the D1 rows and the segment rows in one batch (one snapshot), so each record is read
 * once. A move that stops between writing its objects and its batch leaves objects no row names, which no reader
 * opens.
 */

type Bucket = Pick<Bindings, "FILES">;

/** A moved record: the row as it was when it moved. */
export type RecordLine = typeof chatbotRecords.$inferSelect;

export const RECORD_SEGMENT_PREFIX = "records/";
/**
 * How long after its question and its answer a record may still change: the evaluation settles within minutes
 * (three tries, the cron re-sending lost messages every 15 minutes), a failed reply's retry within the hour. Two
 * days leaves room for a queue outage of a day; what is younger stays in D1.
 */
export const SETTLED_AFTER_MS = 2 * 86_400_000;
/** Records per move: a few objects and one D1 batch. */
const MOVE_RECORDS = 500;
/** Moves per housekeeping run (every 15 minutes): up to 5,000 records, above any organization's quarter hour so far. */
const MOVES_PER_RUN = 10;

const r = chatbotRecords;

/**
 * What may move at a time: records asked before the hour SETTLED_AFTER_MS ago began (whole hours, so that an hour's
 * records move together, into one segment per assistant, rather than a quarter of an hour at each run) and answered
 * before SETTLED_AFTER_MS ago.
 */
export interface Cutoff {
  asked: number;
  answered: number;
}

export const cutoffAt = (now: number): Cutoff => ({
  asked: hourOf(now - SETTLED_AFTER_MS),
  answered: now - SETTLED_AFTER_MS,
});

/** Records that can no longer change at `cutoff`: asked and answered before it, no evaluation pending. */
const settled = (cutoff: Cutoff) =>
  and(
    lt(r.createdAt, cutoff.asked),
    or(isNull(r.answeredAt), lt(r.answeredAt, cutoff.answered)),
    or(isNull(r.evaluationStatus), ne(r.evaluationStatus, "pending")),
  );

/**
 * The oldest settled records, up to `limit`. A record whose time lies inside a segment of its assistant stays in D1:
 * it may be that segment's record answered again after it moved (a reply upserts by the question's id), which
 * readers show instead of the moved line; moving it again would list one record in two segments. Such records are
 * rare (answered again days later, or evaluated after the cut-off), so D1 keeps them.
 */
export async function settledRecords(db: Db, cutoff: Cutoff, limit = MOVE_RECORDS): Promise<RecordLine[]> {
  const rows = await db
    .select()
    .from(r)
    .where(
      and(
        settled(cutoff),
        sql`not exists (select 1 from chatbot_record_segments s where s.chatbot_id = ${r.chatbotId}
          and s.hour = ${r.createdAt} - ${r.createdAt} % 3600000
          and s.min_created_at <= ${r.createdAt} and s.max_created_at >= ${r.createdAt})`,
      ),
    )
    .orderBy(asc(r.createdAt), asc(r.id))
    .limit(limit);
  return wholeTimes(rows, limit);
}

/**
 * Rows read oldest first up to `limit`, less those of the last time read when the limit cut it: they wait for the
 * next move, all together, so that no later record of theirs falls inside this move's span.
 */
export function wholeTimes<L extends MovableRecord>(rows: L[], limit: number): L[] {
  if (rows.length < limit) return rows;
  const last = rows[rows.length - 1].createdAt;
  const before = rows.filter((row) => row.createdAt < last);
  return before.length ? before : rows;
}

/** What every moved record has: the segment it goes to and its place in lists follow from these. */
export interface MovableRecord {
  id: string;
  organizationId: string;
  createdAt: number;
}

/** The columns every segment row has (chatbot_record_segments, tool_record_segments). */
export interface SegmentRow {
  key: string;
  organizationId: string;
  hour: number;
  records: number;
  minCreatedAt: number;
  maxCreatedAt: number;
  createdAt: number;
}

/** A segment written to R2, not yet committed: its D1 row and the ids of the records it holds. */
export interface WrittenSegment<R extends SegmentRow = SegmentRow> {
  row: R;
  ids: string[];
}

/** How one kind of record moves to segments: its tables, its objects' keys, and when a record is settled. */
export interface RecordMove<L extends MovableRecord, R extends SegmentRow> {
  /** The D1 table of the records, and that of their segments. */
  records: string;
  segments: string;
  /** Of every object: `{prefix}{organization}/{path}/{hour}/{id}.ndjson.gz`. */
  prefix: string;
  /** The parts of the object's path after the organization: records with the same share a segment. */
  path: (line: L) => string[];
  /** The columns of the segment row beyond `SegmentRow`, from its records. */
  columns: (lines: L[]) => Omit<R, keyof SegmentRow>;
  /** The oldest records settled at `cutoff`, a move's worth, in time order. */
  pick: (db: Db, cutoff: Cutoff) => Promise<L[]>;
  /** SQL of `settled` over the records' columns; `bind` binds a value and answers its placeholder. */
  settled: (cutoff: Cutoff, bind: (value: unknown) => string) => string;
}

export type WrittenRecordSegment = WrittenSegment<typeof chatbotRecordSegments.$inferInsert>;

const chatbotRecordMove: RecordMove<RecordLine, WrittenRecordSegment["row"]> = {
  records: "chatbot_records",
  segments: "chatbot_record_segments",
  prefix: RECORD_SEGMENT_PREFIX,
  path: (line) => [line.chatbotId],
  columns: ([first]) => ({ chatbotId: first.chatbotId }),
  pick: (db, cutoff) => settledRecords(db, cutoff),
  settled: (cutoff, bind) =>
    `created_at < ${bind(cutoff.asked)} AND (answered_at IS NULL OR answered_at < ${bind(cutoff.answered)}) ` +
    "AND (evaluation_status IS NULL OR evaluation_status <> 'pending')",
};

/** Lines written to R2 together: those of one organization, path and hour, in the new object `key`. */
export interface PutGroup<L> {
  key: string;
  organizationId: string;
  hour: number;
  lines: L[];
}

/**
 * Writes the lines into one new object per (organization, `path`, hour of their `createdAt`), keyed
 * `{prefix}{organization}/{path}/{hour}/{id}.ndjson.gz`: what every kind of moved record does (webhook deliveries
 * too, with no path), before its own segment row.
 */
export async function putHourGroups<L extends MovableRecord>(
  env: Bucket,
  prefix: string,
  lines: L[],
  path: (line: L) => string[],
  now: number,
): Promise<PutGroup<L>[]> {
  const groups = new Map<string, L[]>();
  for (const line of lines) {
    const group = [line.organizationId, ...path(line), hourOf(line.createdAt)].join("/");
    groups.set(group, [...(groups.get(group) ?? []), line]);
  }
  return Promise.all(
    [...groups.values()].map(async (group) => {
      const { organizationId, createdAt } = group[0];
      const hour = hourOf(createdAt);
      const parts = [organizationId, ...path(group[0]), hourName(hour), `${uuidv7(now)}.ndjson.gz`];
      const key = `${prefix}${parts.join("/")}`;
      await putSegment(env.FILES, key, group);
      return { key, organizationId, hour, lines: group };
    }),
  );
}

/** Writes the records into one new object per (organization, path, hour) and returns the segments to commit. */
export async function writeSegments<L extends MovableRecord, R extends SegmentRow>(
  env: Bucket,
  move: RecordMove<L, R>,
  lines: L[],
  now = Date.now(),
): Promise<WrittenSegment<R>[]> {
  const groups = await putHourGroups(env, move.prefix, lines, move.path, now);
  return groups.map(({ key, organizationId, hour, lines: group }) => {
    const times = group.map((line) => line.createdAt);
    const row: SegmentRow = {
      key,
      organizationId,
      hour,
      records: group.length,
      minCreatedAt: Math.min(...times),
      maxCreatedAt: Math.max(...times),
      createdAt: now,
    };
    return { row: { ...row, ...move.columns(group) } as R, ids: group.map((line) => line.id) };
  });
}

/** Writes the chatbot records into one new object per (organization, assistant, hour). */
export const writeRecordSegments = (env: Bucket, lines: RecordLine[], now = Date.now()) =>
  writeSegments(env, chatbotRecordMove, lines, now);

/**
 * Lists the segments and deletes the records they hold, in one batch: the records change store at once. Each
 * segment is listed only if every record it holds is still in D1 and still settled, and its records are deleted
 * only if it was listed: a record changed while it was being written stays in D1 as it is now, and a move running
 * beside this one over the same records lists nothing twice.
 */
export async function commitSegments<L extends MovableRecord, R extends SegmentRow>(
  db: Db,
  move: RecordMove<L, R>,
  segments: WrittenSegment<R>[],
  cutoff: Cutoff,
): Promise<void> {
  if (!segments.length) return;
  await batch(
    db,
    segments.flatMap(({ row, ids }) => {
      const values: unknown[] = [];
      const bind = (value: unknown) => `?${values.push(value)}`;
      const columns = Object.entries(row);
      const list =
        `INSERT INTO ${move.segments} (${columns.map(([name]) => snakeCase(name)).join(", ")}) ` +
        `SELECT ${columns.map(([, value]) => bind(value)).join(", ")} WHERE (SELECT count(*) FROM ${move.records} ` +
        `WHERE id IN (SELECT value FROM json_each(${bind(JSON.stringify(ids))})) AND ${move.settled(cutoff, bind)}) ` +
        `= ${bind(row.records)}`;
      return [
        sqlStatement(db, list).bind(...values),
        sqlStatement(
          db,
          `DELETE FROM ${move.records} WHERE id IN (SELECT value FROM json_each(?1)) ` +
            `AND EXISTS (SELECT 1 FROM ${move.segments} WHERE key = ?2)`,
        ).bind(JSON.stringify(ids), row.key),
      ];
    }),
  );
}

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Lists the chatbot records' segments and deletes the records they hold (`commitSegments`). */
export const commitRecordSegments = (db: Db, segments: WrittenRecordSegment[], cutoff: Cutoff) =>
  commitSegments(db, chatbotRecordMove, segments, cutoff);

/**
 * Housekeeping: moves settled records to segments, a move at a time, oldest first, until none is left or the run's
 * share is done. Returns how many records moved.
 */
export async function moveRecords<L extends MovableRecord, R extends SegmentRow>(
  env: Bucket,
  db: Db,
  move: RecordMove<L, R>,
  now = Date.now(),
): Promise<number> {
  const cutoff = cutoffAt(now);
  let moved = 0;
  for (let run = 0; run < MOVES_PER_RUN; run++) {
    const lines = await move.pick(db, cutoff);
    if (!lines.length) break;
    const segments = await writeSegments(env, move, lines, now);
    const keys = segments.map((s) => s.row.key);
    try {
      await commitSegments(db, move, segments, cutoff);
    } catch (err) {
      // Unlisted objects are never read; removing them only saves their bytes.
      await env.FILES.delete(keys);
      throw err;
    }
    const { results } = await sqlStatement(
      db,
      `SELECT key FROM ${move.segments} WHERE key IN (SELECT value FROM json_each(?1))`,
    )
      .bind(JSON.stringify(keys))
      .all<{ key: string }>();
    const listed = new Set(results.map((s) => s.key));
    const unlisted = keys.filter((key) => !listed.has(key));
    if (unlisted.length) await env.FILES.delete(unlisted);
    const done = segments.filter((s) => listed.has(s.row.key)).reduce((n, s) => n + s.ids.length, 0);
    // Nothing listed: another move took these records, or they changed; the next run looks again.
    if (!done) break;
    moved += done;
  }
  return moved;
}

/** Housekeeping: moves settled chatbot records to their segments. */
export const moveSettledRecords = (env: Bucket, db: Db, now = Date.now()) =>
  moveRecords(env, db, chatbotRecordMove, now);

/** The records of a segment. */
export const readRecordSegment = (env: Bucket, key: string) =>
  readSegmentLines<RecordLine>(env.FILES, key, "chatbot record segment");
