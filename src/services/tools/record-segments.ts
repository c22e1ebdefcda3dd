import { and, asc, lt, ne } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { toolExecutionRecords, type toolRecordSegments } from "../../db/schema";
import { readSegmentLines } from "../../lib/r2";
import { moveRecords, type RecordMove, wholeTimes } from "../statistics/record-segments";

/**
 * Finished tool execution records leave D1 for R2 (docs/decisions.md, "Tool execution records in hourly R2
 * segments") as chatbot records do (statistics/record-segments.ts): housekeeping moves every record made before the
 * hour SETTLED_AFTER_MS ago began and no longer pending into NDJSON segments, one R2 object per move and
 * (organization, assistant, tool, hour of the record's `createdAt`), and lists each segment in
 * `tool_record_segments` in the D1 batch that deletes the moved rows. Readers (tools/execution-records.ts) take the
 * D1 rows and the segment rows in one batch (one snapshot), so each record is read once.
 *
 * A record changes only while it is pending: the recorder (agent/recorder.ts) inserts it pending and sets its
 * ending once, and a desktop call's result (`completeDesktopCall`) ends only a pending one. Pending records stay in
 * D1 however old (a desktop client may still answer). The assistant and the tool of a moved record are its
 * segment's, nulled as the record's own columns are when they are deleted.
 */

type Bucket = Pick<Bindings, "FILES">;

/** A moved record: the row as it was when it moved. */
export type ToolRecordLine = typeof toolExecutionRecords.$inferSelect;

export const TOOL_RECORD_SEGMENT_PREFIX = "tool-records/";
/** Records per move: outputs run to 1 MiB, so fewer than a move of chatbot records. */
const MOVE_RECORDS = 200;

const t = toolExecutionRecords;

/** The oldest finished records made before the cut-off, up to `limit`, in time order. */
export async function finishedRecords(db: Db, asked: number, limit = MOVE_RECORDS): Promise<ToolRecordLine[]> {
  const rows = await db
    .select()
    .from(t)
    .where(and(lt(t.createdAt, asked), ne(t.status, "pending")))
    .orderBy(asc(t.createdAt), asc(t.id))
    .limit(limit);
  return wholeTimes(rows, limit);
}

/** Tool execution records as `moveRecords` and `commitSegments` move them. */
export const toolRecordMove: RecordMove<ToolRecordLine, typeof toolRecordSegments.$inferInsert> = {
  records: "tool_execution_records",
  segments: "tool_record_segments",
  prefix: TOOL_RECORD_SEGMENT_PREFIX,
  path: (line) => [line.chatbotId ?? "none", line.toolId ?? "none"],
  columns: (lines) => {
    const ids = lines.map((line) => line.id).sort();
    return { chatbotId: lines[0].chatbotId, toolId: lines[0].toolId, minId: ids[0], maxId: ids[ids.length - 1] };
  },
  pick: (db, cutoff) => finishedRecords(db, cutoff.asked),
  settled: (cutoff, bind) => `created_at < ${bind(cutoff.asked)} AND status <> 'pending'`,
};

/** Housekeeping: moves finished tool execution records to segments. Returns how many moved. */
export const moveFinishedToolRecords = (env: Bucket, db: Db, now = Date.now()) =>
  moveRecords(env, db, toolRecordMove, now);

/** The records of a segment, with the assistant and tool the segment's row has now. */
export const readToolRecordSegment = async (
  env: Bucket,
  segment: { key: string; chatbotId: string | null; toolId: string | null },
): Promise<ToolRecordLine[]> =>
  (await readSegmentLines<ToolRecordLine>(env.FILES, segment.key, "tool record segment")).map((line) => ({
    ...line,
    chatbotId: segment.chatbotId,
    toolId: segment.toolId,
  }));
