import { and, asc, count, desc, eq, gte, isNull, lte, or, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { union } from "drizzle-orm/sqlite-core";
import type { Bindings, Db } from "../../env";
import { chatbots, toolExecutionRecords, toolRecordSegments, tools } from "../../db/schema";
import type { Page, PageWindow } from "../../db/paginate";
import { holds, mergeWindow } from "../statistics/records";
import { pageAcrossParts, sqlOrder } from "../shards/parts-merge";
import { readToolRecordSegment } from "./record-segments";
import { notFound } from "../../lib/errors";
import { isUuid } from "../../lib/ids";
import { contains } from "../../lib/sql";
import { parseDate } from "../../lib/time";
import type { OrgAccess } from "../access";
import { visibleChatbotsCondition } from "../chatbots/visibility";
import { visibleToolsCondition } from "./access";

export type ToolExecutionRow = typeof toolExecutionRecords.$inferSelect;

type Bucket = Pick<Bindings, "FILES">;
const s = toolRecordSegments;
const t = toolExecutionRecords;

/**
 * What a member who is not an owner sees of the organization's records: those of the tools they can see, and of
 * built-in tools (knowledge search, no tool) of the assistants they can see. Owners see all (null).
 */
interface Visible {
  tools: Set<string>;
  chatbots: Set<string>;
}

/**
 * The caller's `Visible` ids, read from the configuration (tools, assistants and their group links) apart from the
 * records: the two are to live in different databases (docs/scale.md §5 step 4), so no statement joins them.
 */
async function visibleIds(db: Db, access: OrgAccess, userId: string): Promise<Visible | null> {
  if (access.isOwner) return null;
  const [toolRows, chatbotRows] = await db.batch([
    db.select({ id: tools.id }).from(tools).where(visibleToolsCondition(access)),
    db.select({ id: chatbots.id }).from(chatbots).where(visibleChatbotsCondition(access, userId)),
  ]);
  return { tools: new Set(toolRows.map((r) => r.id)), chatbots: new Set(chatbotRows.map((r) => r.id)) };
}

/** Whether the caller sees a record, or a segment (same organization, assistant and tool) of the organization. */
const sees = (visible: Visible | null, row: { toolId: string | null; chatbotId: string | null }) =>
  !visible ||
  (row.toolId !== null ? visible.tools.has(row.toolId) : row.chatbotId !== null && visible.chatbots.has(row.chatbotId));

const within = (column: SQLWrapper, ids: Set<string>) =>
  sql`${column} in (select value from json_each(${JSON.stringify([...ids])}))`;

/**
 * `sees` in SQL, over the records or over their segments (tools/record-segments.ts), with the ids bound: for
 * filters a page and its count answer.
 */
function visibleCondition(organizationId: string, visible: Visible | null, on: typeof t | typeof s): SQL {
  const inOrganization = eq(on.organizationId, organizationId);
  if (!visible) return inOrganization;
  return and(
    inOrganization,
    or(within(on.toolId, visible.tools), and(isNull(on.toolId), within(on.chatbotId, visible.chatbots))),
  )!;
}

export interface RecordFilters {
  chatbot?: string;
  tool?: string;
  toolType?: string;
  status?: string;
  query?: string;
  startDate?: string;
  endDate?: string;
}

/** The scope and the assistant and tool filters, over the records or over their segments. */
const scopeCondition = (on: typeof t | typeof s, f: RecordFilters, toolId?: string) =>
  and(
    toolId ? eq(on.toolId, toolId) : undefined,
    f.chatbot ? eq(on.chatbotId, f.chatbot) : undefined,
    f.tool ? eq(on.toolId, f.tool) : undefined,
  );

/** The filters a segment's row answers: scope, assistant, tool and dates (a segment holds one of each). */
const segmentCondition = (f: RecordFilters, toolId?: string) =>
  and(
    scopeCondition(s, f, toolId),
    f.startDate ? gte(s.maxCreatedAt, parseDate(f.startDate)) : undefined,
    f.endDate ? lte(s.minCreatedAt, parseDate(f.endDate, true)) : undefined,
  );

export function recordFilterCondition(f: RecordFilters, toolId?: string): SQL | undefined {
  return and(
    scopeCondition(t, f, toolId),
    f.toolType ? eq(t.toolType, f.toolType) : undefined,
    f.status ? eq(t.status, f.status as ToolExecutionRow["status"]) : undefined,
    f.query
      ? or(
          contains(t.chatbotName, f.query),
          contains(t.toolName, f.query),
          contains(t.toolDisplayName, f.query),
          contains(t.messageText, f.query),
        )
      : undefined,
    f.startDate ? gte(t.createdAt, parseDate(f.startDate)) : undefined,
    f.endDate ? lte(t.createdAt, parseDate(f.endDate, true)) : undefined,
  );
}

/** `recordFilterCondition` for a moved record, beyond what its segment's row answered (`segmentCondition`). */
const matches = (line: ToolExecutionRow, f: RecordFilters) =>
  (!f.toolType || line.toolType === f.toolType) &&
  (!f.status || line.status === f.status) &&
  (!f.query ||
    [line.chatbotName, line.toolName, line.toolDisplayName, line.messageText].some((text) => holds(text, f.query!))) &&
  (!f.startDate || line.createdAt >= parseDate(f.startDate)) &&
  (!f.endDate || line.createdAt <= parseDate(f.endDate, true));

const segmentColumns = {
  key: s.key,
  chatbotId: s.chatbotId,
  toolId: s.toolId,
  records: s.records,
  min: s.minCreatedAt,
  max: s.maxCreatedAt,
};

/**
 * One record the caller may see, in D1 or moved, else 404; the route has declared the permission its use needs. The
 * record from the organization's data `parts` (its id does not say which part holds it: each is asked at once), the
 * caller's sight of it from `db` (the configuration).
 */
export async function getRecordForRead(
  env: Bucket,
  db: Db,
  parts: Db[],
  access: OrgAccess,
  userId: string,
  id: string,
  toolId?: string,
): Promise<ToolExecutionRow> {
  if (!isUuid(id)) throw notFound("Tool execution record not found.");
  // The record's organization in SQL, the caller's sight of it checked here: the ids and the record read at once.
  const inOrganization = (on: typeof t | typeof s) => eq(on.organizationId, access.organizationId);
  const [visible, ...read] = await Promise.all([
    visibleIds(db, access, userId),
    ...parts.map((data) =>
      data.batch([
        data
          .select()
          .from(t)
          .where(and(eq(t.id, id), toolId ? eq(t.toolId, toolId) : undefined, inOrganization(t))),
        data
          .select(segmentColumns)
          .from(s)
          .where(and(lte(s.minId, id), gte(s.maxId, id), toolId ? eq(s.toolId, toolId) : undefined, inOrganization(s))),
      ]),
    ),
  ]);
  const found = read.flatMap(([rows]) => rows);
  const candidates = read.flatMap(([, segments]) => segments);
  const row = found.find((r) => sees(visible, r));
  const segments = candidates.filter((seg) => sees(visible, seg));
  if (row) return row;
  for (const lines of await Promise.all(segments.map((seg) => readToolRecordSegment(env, seg)))) {
    const moved = lines.find((line) => line.id === id);
    if (moved) return moved;
  }
  throw notFound("Tool execution record not found.");
}

/**
 * A page of the records the caller sees, newest first, filtered (and scoped to one tool when given), from D1 and the
 * segments as chatbot records' lists merge them (statistics/records.ts), on each data part (`parts`), merged. A
 * moved record is never in D1 again. The caller's sight of them from `db`.
 */
export async function listToolExecutionRecords(
  env: Bucket,
  db: Db,
  parts: Db[],
  access: OrgAccess,
  userId: string,
  filters: RecordFilters,
  toolId: string | undefined,
  window: PageWindow,
): Promise<Page<ToolExecutionRow>> {
  const visible = await visibleIds(db, access, userId);
  return pageAcrossParts(
    parts,
    window,
    (data, w) => partRecords(env, data, access, visible, filters, toolId, w),
    sqlOrder((row: ToolExecutionRow) => [row.createdAt, row.id], true),
  );
}

/** The list's window on one data part (`data`): its D1 rows and its segments. */
async function partRecords(
  env: Bucket,
  data: Db,
  access: OrgAccess,
  visible: Visible | null,
  filters: RecordFilters,
  toolId: string | undefined,
  { offset, limit }: PageWindow,
): Promise<Page<ToolExecutionRow>> {
  const where = and(visibleCondition(access.organizationId, visible, t), recordFilterCondition(filters, toolId));
  const inRange = and(visibleCondition(access.organizationId, visible, s), segmentCondition(filters, toolId));
  const newest = sql`(select max(${s.maxCreatedAt}) from ${s} where ${inRange})`;
  const order = [desc(t.createdAt), desc(t.id)];
  const [segments, page, [{ n }], older] = await data.batch([
    data.select(segmentColumns).from(s).where(inRange).orderBy(desc(s.maxCreatedAt), desc(s.key)),
    data
      .select()
      .from(t)
      .where(where)
      .orderBy(...order)
      .limit(limit)
      .offset(offset),
    data.select({ n: count() }).from(t).where(where),
    data
      .select()
      .from(t)
      .where(and(where, lte(t.createdAt, newest)))
      .orderBy(...order),
  ]);
  if (!segments.length) return { count: n, items: page };
  const byKey = new Map(segments.map((seg) => [seg.key, seg]));
  const lineFiltered = Boolean(filters.toolType || filters.status || filters.query);
  const start = filters.startDate ? parseDate(filters.startDate) : -Infinity;
  const end = filters.endDate ? parseDate(filters.endDate, true) : Infinity;
  return mergeWindow({
    window: { offset, limit },
    count: n,
    page,
    older: older.map((row) => ({ record: row, view: row })),
    segments,
    read: async (key) => (await readToolRecordSegment(env, byKey.get(key)!)).filter((l) => matches(l, filters)),
    countedAsIs: (seg) => !lineFiltered && seg.min >= start && seg.max <= end,
    views: async (lines) => new Map(lines.map((line) => [line.id, line])),
  });
}

/**
 * Filter options of the record list: the distinct assistants or tools of the records the caller sees, by name. The
 * records' (and their segments') distinct pairs are read on each data part (`parts`) beside the caller's ids, then
 * the names by ids, both from `db`.
 */
export async function recordOptions(
  db: Db,
  parts: Db[],
  access: OrgAccess,
  userId: string,
  kind: "chatbots" | "tools",
  toolId?: string,
) {
  // In D1's records or in their segments (same columns, same visibility).
  const pairs = (data: Db, on: typeof t | typeof s) =>
    data
      .selectDistinct({ chatbotId: on.chatbotId, toolId: on.toolId })
      .from(on)
      .where(and(eq(on.organizationId, access.organizationId), toolId ? eq(on.toolId, toolId) : undefined));
  const [visible, ...seen] = await Promise.all([
    visibleIds(db, access, userId),
    ...parts.map((data) => union(pairs(data, t), pairs(data, s))),
  ]);
  const ids = new Set<string>();
  for (const pair of seen.flat()) {
    const id = kind === "chatbots" ? pair.chatbotId : pair.toolId;
    if (id !== null && sees(visible, pair)) ids.add(id);
  }
  if (kind === "chatbots") {
    return db
      .select({ id: chatbots.id, name: chatbots.name })
      .from(chatbots)
      .where(within(chatbots.id, ids))
      .orderBy(asc(chatbots.name), asc(chatbots.id));
  }
  return db
    .select({ id: tools.id, name: tools.name, displayName: tools.displayName, toolType: tools.toolType })
    .from(tools)
    .where(within(tools.id, ids))
    .orderBy(asc(tools.displayName), asc(tools.id))
    .then((rows) => rows.map((tool) => ({ ...tool, name: tool.name ?? "" })));
}

/**
 * Stores a pending desktop call's result: the updated record (null when it was no longer pending)
 * and whether it was the last pending call of its reply, which may then continue.
 */
export async function completeDesktopCall(
  parts: Db[],
  record: ToolExecutionRow,
  result: { status: ToolExecutionRow["status"]; output: unknown; error: string | null },
): Promise<{ row: ToolExecutionRow | null; lastOfReply: boolean }> {
  // Its id does not say which part holds it: the conditional update runs on each, and one at most holds it.
  const updated = await Promise.all(
    parts.map(async (data) => {
      const [row] = await data
        .update(t)
        .set({
          status: result.status,
          output: result.output as never,
          error: result.error,
          durationMs: Date.now() - record.createdAt,
          updatedAt: Date.now(),
        })
        .where(and(eq(t.id, record.id), eq(t.status, "pending")))
        .returning();
      return { data, row };
    }),
  );
  const { data, row } = updated.find((u) => u.row) ?? { data: null, row: null };
  if (!row || !data) return { row: null, lastOfReply: false };
  if (!row.messageId || !row.conversationId) return { row, lastOfReply: false };
  const [waiting] = await data
    .select({ id: t.id })
    .from(t)
    .where(and(eq(t.messageId, row.messageId), eq(t.status, "pending")))
    .limit(1);
  return { row, lastOfReply: !waiting };
}
