import { and, desc, eq, gte, inArray, lt, lte, sql, type SQL } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { chatbotRecordSegments, chatbotRecords, contacts } from "../../db/schema";
import type { Page, PageWindow } from "../../db/paginate";
import { contains, inChunks } from "../../lib/sql";
import { firstAcrossParts, pageAcrossParts, sqlOrder } from "../shards/parts-merge";
import { hourOf } from "./buckets";
import { readRecordSegment, type RecordLine } from "./record-segments";

export interface RecordFilters {
  chatbotId: string;
  start: number;
  end: number;
  userMessage?: string;
  botMessage?: string;
}

/** A record's place in the list's order (`createdAt`, then id, descending): where an export's next page starts. */
export interface RecordKey {
  createdAt: number;
  id: string;
}

/** The filters, and for an export's page the last record of the page before (`after`: only records past it). */
type RecordWindowFilters = RecordFilters & { after?: RecordKey };

type Bucket = Pick<Bindings, "FILES">;

/** Records an export reads at a time from each part: what it holds is a page and the segments it opens, whatever
 * the number of records. */
export const EXPORT_PAGE = 100;

function where(f: RecordWindowFilters): SQL {
  const parts: SQL[] = [
    eq(chatbotRecords.chatbotId, f.chatbotId),
    gte(chatbotRecords.createdAt, f.start),
    lt(chatbotRecords.createdAt, f.end),
  ];
  if (f.userMessage) parts.push(contains(chatbotRecords.inputMessage, f.userMessage));
  if (f.botMessage) parts.push(contains(chatbotRecords.outputMessage, f.botMessage));
  // A row value: SQLite compares it as the list orders, and ranges over the assistant's index on `createdAt`.
  if (f.after)
    parts.push(sql`(${chatbotRecords.createdAt}, ${chatbotRecords.id}) < (${f.after.createdAt}, ${f.after.id})`);
  return and(...parts)!;
}

/** Whether a record comes after `key` in the list's order, as `where` compares (ids are ASCII: the same order). */
const isAfter = (r: RecordKey, key: RecordKey | undefined) =>
  !key || r.createdAt < key.createdAt || (r.createdAt === key.createdAt && r.id < key.id);

/** SQLite's LIKE of `contains` (lib/sql.ts): ASCII letters match either case, every other character itself. */
const asciiLower = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());
export const holds = (text: string | null, part: string) =>
  text !== null && asciiLower(text).includes(asciiLower(part));

/** `where` for a moved record. */
const matches = (line: RecordLine, f: RecordWindowFilters) =>
  line.chatbotId === f.chatbotId &&
  line.createdAt >= f.start &&
  line.createdAt < f.end &&
  (!f.userMessage || holds(line.inputMessage, f.userMessage)) &&
  (!f.botMessage || holds(line.outputMessage, f.botMessage)) &&
  isAfter(line, f.after);

/** The list's order, newest question first: `createdAt`, then id, descending. */
const newestFirst = (a: { id: string; createdAt: number }, b: { id: string; createdAt: number }) =>
  b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

const selectRecords = (db: Db) =>
  db
    // Aliased: D1 batches return rows keyed by column name, where contacts.id would overwrite the record's id.
    .select({
      record: chatbotRecords,
      contact: {
        id: sql<string | null>`${contacts.id}`.as("contact_ref_id"),
        name: sql<string | null>`${contacts.name}`.as("contact_ref_name"),
      },
    })
    .from(chatbotRecords)
    .leftJoin(contacts, eq(contacts.id, chatbotRecords.contactId));

export type ChatbotRecordView = Awaited<ReturnType<ReturnType<typeof selectRecords>["all"]>>[number];

const s = chatbotRecordSegments;

/**
 * The window `[offset, offset + limit)` of an assistant's records, from D1 and the segments (record-segments.ts),
 * and with `counted` their total. One D1 batch (one snapshot) reads the segments of the date range, D1's count and
 * page, and D1's rows as old as the newest segment's records ("older"; few: the housekeeping moves the oldest
 * records first). D1's other rows come before every moved record, so a page among them opens no segment. A D1 row
 * with the id of a moved record is that record answered again after it moved, and replaces it.
 *
 * Segments are read newest first until the window is known; for the total, only those whose count is not the
 * list's: with a message filter, across an end of the range (days in a timezone off whole hours), or holding a
 * time of a D1 row (which may replace one of their records).
 *
 * With `f.after` (an export's page), the window is of the records past that one, and segments whose records all come
 * before it are not listed. Without `counted` (an export's page, whose window is the first), the answer's count is not
 * the total.
 */
async function recordsWindow(
  env: Bucket,
  db: Db,
  f: RecordWindowFilters,
  { offset, limit }: PageWindow,
  counted: boolean,
): Promise<Page<ChatbotRecordView>> {
  const inRange = and(
    eq(s.chatbotId, f.chatbotId),
    gte(s.hour, hourOf(f.start)),
    lt(s.hour, f.end),
    gte(s.maxCreatedAt, f.start),
    lt(s.minCreatedAt, f.end),
    f.after ? lte(s.minCreatedAt, f.after.createdAt) : undefined,
  );
  const newest = sql`(select max(${s.maxCreatedAt}) from ${s} where ${inRange})`;
  const order = [desc(chatbotRecords.createdAt), desc(chatbotRecords.id)];
  const [segments, page, older, times, counts] = await db.batch([
    db
      .select({ key: s.key, records: s.records, min: s.minCreatedAt, max: s.maxCreatedAt })
      .from(s)
      .where(inRange)
      .orderBy(desc(s.maxCreatedAt), desc(s.key)),
    selectRecords(db)
      .where(where(f))
      .orderBy(...order)
      .limit(limit)
      .offset(offset),
    selectRecords(db)
      .where(and(where(f), lte(chatbotRecords.createdAt, newest)))
      .orderBy(...order),
    db
      .select({ id: chatbotRecords.id, createdAt: chatbotRecords.createdAt })
      .from(chatbotRecords)
      .where(
        and(
          eq(chatbotRecords.chatbotId, f.chatbotId),
          gte(chatbotRecords.createdAt, f.start),
          lt(chatbotRecords.createdAt, f.end),
          lte(chatbotRecords.createdAt, newest),
        ),
      ),
    // Only a list counts: an export's pages want no total, and counting the whole list again for each page read
    // about n^2 / page rows for an export of n records.
    ...(counted ? [db.select({ count: sql<number>`count(*)` }).from(chatbotRecords).where(where(f))] : []),
  ] as const);
  if (!segments.length) return { count: counts?.[0].count ?? page.length, items: page };
  // Without the count (an export's page: the first window past `f.after`), D1's rows newer than every segment, which
  // the merge places first, are the page's newer than the newest segment: all of them unless the page holds fewer.
  const count = counts?.[0].count ?? older.length + page.filter((r) => r.record.createdAt > segments[0].max).length;
  const inD1 = new Set(times.map((t) => t.id));
  const filtered = Boolean(f.userMessage || f.botMessage);
  return mergeWindow({
    window: { offset, limit },
    count,
    page,
    older: older.map((view) => ({ record: view.record, view })),
    segments,
    read: async (key) => (await readRecordSegment(env, key)).filter((l) => matches(l, f) && !inD1.has(l.id)),
    countedAsIs: counted
      ? (seg) =>
          !filtered &&
          seg.min >= f.start &&
          seg.max < f.end &&
          !times.some((t) => t.createdAt >= seg.min && t.createdAt <= seg.max)
      : null,
    views: (lines) => viewsOf(db, lines),
  });
}

/** A segment as a list reads it: its key, how many records it holds and their span of `createdAt`. */
export interface ListedSegment {
  key: string;
  records: number;
  min: number;
  max: number;
}

/**
 * The window `[offset, offset + limit)` of a list of records newest first (`createdAt`, then id, descending) merged
 * from D1 and segments, and its total: D1's count and page, D1's rows as old as the newest segment's records
 * (`older`) and the segments that may hold records of the list (newest first), all read in one D1 batch (one
 * snapshot). D1's other rows come before every moved record, so a page among them opens no segment.
 *
 * Segments are read newest first until the window is known; for the total (`countedAsIs` given), only those whose
 * count is not the list's.
 */
export async function mergeWindow<L extends { id: string; createdAt: number }, V>({
  window: { offset, limit },
  count,
  page,
  older,
  segments,
  read: readLines,
  countedAsIs,
  views: viewsOfLines,
}: {
  window: PageWindow;
  count: number;
  page: V[];
  older: { record: L; view: V }[];
  segments: ListedSegment[];
  /** The records of a segment that the list shows. */
  read: (key: string) => Promise<L[]>;
  /** Whether a segment holds only records of the list (counted without reading); null when no total is wanted. */
  countedAsIs: ((segment: ListedSegment) => boolean) | null;
  /** Moved records as D1's rows read. */
  views: (lines: L[]) => Promise<Map<string, V>>;
}): Promise<Page<V>> {
  const lines = new Map<string, Promise<L[]>>();
  const shown = (key: string) => {
    let found = lines.get(key);
    if (!found) {
      found = readLines(key);
      lines.set(key, found);
    }
    return found;
  };
  const moved = countedAsIs
    ? await Promise.all(segments.map(async (seg) => (countedAsIs(seg) ? seg.records : (await shown(seg.key)).length)))
    : [];
  const total = count + moved.reduce((sum, n) => sum + n, 0);

  // D1's rows newer than every moved record come first.
  const first = count - older.length;
  const need = offset + limit - first;
  if (need <= 0) return { count: total, items: page };
  let read = 0;
  let known: { record: L; view?: V }[] = [];
  const opened: L[] = [];
  for (;;) {
    // Enough segments to hold what is missing, if their records are the list's; at least one.
    let expected = known.length;
    const next: string[] = [];
    while (read < segments.length && (!next.length || expected < need)) {
      next.push(segments[read].key);
      expected += segments[read++].records;
    }
    opened.push(...(await Promise.all(next.map(shown))).flat());
    // Every record of an unread segment is at most as new as this: what is newer is in its final place.
    const bound = read < segments.length ? segments[read].max : -Infinity;
    known = [...older, ...opened.map((record) => ({ record }))]
      .filter((e) => e.record.createdAt > bound)
      .sort((a, b) => newestFirst(a.record, b.record));
    if (known.length >= need || read === segments.length) break;
  }
  const window = known.slice(Math.max(0, offset - first), need);
  const views = await viewsOfLines(window.flatMap((e) => (e.view ? [] : [e.record])));
  return {
    count: total,
    items: [...page.slice(0, Math.max(0, first - offset)), ...window.map((e) => e.view ?? views.get(e.record.id)!)],
  };
}

/**
 * Moved records as D1's rows read, with their contact as it is now (as D1's join, by id: the record's organization
 * is its conversation's, and a personal assistant's records may be of several).
 */
async function viewsOf(db: Db, lines: RecordLine[]) {
  const ids = lines.flatMap((l) => (l.contactId ? [l.contactId] : []));
  const found = await inChunks(ids, (part) =>
    db.select({ id: contacts.id, name: contacts.name }).from(contacts).where(inArray(contacts.id, part)),
  );
  const byId = new Map(found.map((c) => [c.id, c]));
  return new Map<string, ChatbotRecordView>(
    lines.map((record) => {
      const contact = (record.contactId && byId.get(record.contactId)) || null;
      return [record.id, { record, contact: { id: contact?.id ?? null, name: contact?.name ?? null } }];
    }),
  );
}

/** The list's order as SQL sorts it, for the merge of the data parts. */
const viewOrder = sqlOrder((v: ChatbotRecordView) => [v.record.createdAt, v.record.id], true);

/** One page of an assistant's records, newest question first, with the total count, from each data part (`parts`). */
export const listChatbotRecords = (env: Bucket, parts: Db[], f: RecordFilters, window: PageWindow) =>
  pageAcrossParts(parts, window, (db, w) => recordsWindow(env, db, f, w, true), viewOrder);

/**
 * Every record matching, newest first, from each data part (`parts`), a page of `size` at a time: each page is the
 * first `size` records past the last one of the page before (a keyset on `createdAt` and id, not an offset), so no
 * record is read twice or missed, those of one millisecond included, and no more than a page is held at once.
 */
export async function* chatbotRecordPages(
  env: Bucket,
  parts: Db[],
  f: RecordFilters,
  size = EXPORT_PAGE,
): AsyncGenerator<ChatbotRecordView[]> {
  let after: RecordKey | undefined;
  for (;;) {
    const page = await firstAcrossParts(
      parts,
      async (db) => (await recordsWindow(env, db, { ...f, after }, { offset: 0, limit: size }, false)).items,
      viewOrder,
      size,
    );
    if (page.length) yield page;
    if (page.length < size) return;
    const last = page[page.length - 1].record;
    after = { createdAt: last.createdAt, id: last.id };
  }
}
