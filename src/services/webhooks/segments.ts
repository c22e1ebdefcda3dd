import { and, inArray, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Bindings, Db } from "../../env";
import { type SegmentCount, webhookDeliveries, webhookDeliverySegments } from "../../db/schema";
import { readSegmentLines } from "../../lib/r2";
import { chunk, inChunks } from "../../lib/sql";
import { putHourGroups } from "../statistics/record-segments";
import type { DeliveryRow } from "./config";

/**
 * Delivered webhook deliveries leave D1 for R2 (docs/decisions.md, "Webhook deliveries in hourly R2 segments"):
 * housekeeping moves every event whose attempts have ended with a success into NDJSON segments, one R2 object per
 * move and (organization, hour of the record's `createdAt`), and records each segment in
 * `webhook_delivery_segments` in the same D1 batch that deletes the moved rows. Readers take the D1 rows and the
 * segment rows from one batch (one snapshot), so each record is read once: from D1 before the batch, from its
 * segment after. A move that stops between writing its objects and its batch leaves objects no row names, which
 * no reader opens.
 */

type Bucket = Pick<Bindings, "FILES">;

/** A moved record: the row as it was, and the number of its event's last attempt when the event moved. */
export type SegmentLine = DeliveryRow & { eventAttempts: number };

export const SEGMENT_PREFIX = "deliveries/";
/** Events per move: a few hundred rows, a few objects, one D1 batch. */
const MOVE_EVENTS = 200;
/** Moves per housekeeping run (every 15 minutes): up to 2,000 events, above any organization's quarter hour so far. */
const MOVES_PER_RUN = 10;

/**
 * The attempts of events ready to move, with their event's last attempt number: each event (message or lifecycle
 * event, webhook) with nothing pending or being sent and a success. Events that never succeeded stay in D1, where
 * redeliver-failed finds them; so do the attempts of an event sent again after it moved (their first attempt is
 * not 1), so that every event's next attempt number is found in D1 or in the one move that holds its first ones.
 */
export async function endedDeliveries(db: Db, events = MOVE_EVENTS): Promise<SegmentLine[]> {
  const picked = await db.all<{ id: string; last: number }>(sql`
    select d.id as id, e.last as last
    from (
      select webhook_id, message_id, conversation_event_id, max(attempt) as last
      from webhook_deliveries
      group by webhook_id, message_id, conversation_event_id
      having min(attempt) = 1 and sum(status in ('pending', 'sending')) = 0 and sum(status = 'success') > 0
      limit ${events}
    ) as e
    join webhook_deliveries as d on d.webhook_id = e.webhook_id and d.message_id is e.message_id
      and d.conversation_event_id is e.conversation_event_id`);
  const last = new Map(picked.map((p) => [p.id, p.last]));
  const rows = await inChunks([...last.keys()], (part) =>
    db.select().from(webhookDeliveries).where(inArray(webhookDeliveries.id, part)),
  );
  return rows.map((row) => ({ ...row, eventAttempts: last.get(row.id)! }));
}

/** A segment written to R2, not yet committed: its D1 row and the ids of the rows it holds. */
export interface WrittenSegment {
  row: typeof webhookDeliverySegments.$inferInsert;
  ids: string[];
}

/** Writes the lines into one new object per (organization, hour) and returns the segments to commit. */
export async function writeSegments(env: Bucket, lines: SegmentLine[], now = Date.now()): Promise<WrittenSegment[]> {
  const groups = await putHourGroups(env, SEGMENT_PREFIX, lines, () => [], now);
  return groups.map(({ key, organizationId, hour, lines: group }) => {
    const ids = group.map((line) => line.id).sort();
    return {
      row: {
        key,
        organizationId,
        hour,
        records: group.length,
        counts: countsOf(group),
        minId: ids[0],
        maxId: ids[ids.length - 1],
        createdAt: now,
      },
      ids,
    };
  });
}

function countsOf(lines: SegmentLine[]): SegmentCount[] {
  const counts = new Map<string, SegmentCount>();
  for (const { webhookId, chatbotId, status } of lines) {
    const key = JSON.stringify([webhookId, chatbotId, status]);
    const seen = counts.get(key);
    if (seen) seen[3]++;
    else counts.set(key, [webhookId, chatbotId, status, 1]);
  }
  return [...counts.values()];
}

/** Lists the segments and deletes the rows they hold, in one batch: the records change store at once. */
export async function commitSegments(db: Db, segments: WrittenSegment[]): Promise<void> {
  if (!segments.length) return;
  const writes: BatchItem<"sqlite">[] = segments.map((s) => db.insert(webhookDeliverySegments).values(s.row));
  for (const part of chunk(segments.flatMap((s) => s.ids)))
    writes.push(
      db
        .delete(webhookDeliveries)
        .where(and(inArray(webhookDeliveries.id, part), inArray(webhookDeliveries.status, ["success", "failure"]))),
    );
  await db.batch(writes as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
}

/**
 * Housekeeping: moves ended events' attempts to segments, a move at a time, until none is left or the run's share
 * is done. Returns how many records moved.
 */
export async function moveEndedDeliveries(env: Bucket, db: Db, now = Date.now()): Promise<number> {
  let moved = 0;
  for (let run = 0; run < MOVES_PER_RUN; run++) {
    const lines = await endedDeliveries(db);
    if (!lines.length) break;
    const segments = await writeSegments(env, lines, now);
    try {
      await commitSegments(db, segments);
    } catch (err) {
      // Unlisted objects are never read; removing them only saves their bytes.
      await env.FILES.delete(segments.map((s) => s.row.key));
      throw err;
    }
    moved += lines.length;
  }
  return moved;
}

/**
 * The records of a segment. One moved before deliveries named their conversation (migration 0035) takes it from the
 * payload it sent (`conversation.id`), if any: its message lives in that conversation's object, not in D1.
 */
export const readSegment = async (env: Bucket, key: string): Promise<SegmentLine[]> =>
  (await readSegmentLines<SegmentLine>(env.FILES, key, "webhook delivery segment")).map((line) => ({
    ...line,
    conversationId: line.conversationId ?? conversationOfPayload(line.requestBody),
  }));

/** The conversation a sent message payload names (payloads.ts: `conversation.id`); null when it names none. */
export function conversationOfPayload(body: string | null | undefined): string | null {
  if (!body) return null;
  try {
    const id = (JSON.parse(body) as { conversation?: { id?: unknown } }).conversation?.id;
    return typeof id === "string" ? id : null;
  } catch (err) {
    if (err instanceof SyntaxError) return null; // a receiver-facing body is JSON; an older one may be cut short
    throw err;
  }
}
