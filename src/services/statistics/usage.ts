// What the usage-statistics endpoints answer: the request's range and buckets, the organization's
// figures in total, over time and per member or assistant (read in ./organization).
import { and, eq } from "drizzle-orm";
import type { Db } from "../../env";
import { chatbots } from "../../db/schema";
import { countedChatbotsCondition } from "../chatbots/quota";
import { client } from "../../db/prepared";
import { fieldError, notFound } from "../../lib/errors";
import { getOrganizationRecord } from "../organizations";
import type { PlanSettings } from "../plans";
import { bucketRows, buckets, checkTimezone, daysOrMonthToDate, type Granularity } from "./buckets";
import {
  usageByEntity,
  usageCounts,
  usageSeries,
  type UsageQuery,
  type UsageScope,
  type UsageSort,
} from "./organization";
import { rollUpIfBehind } from "./rollup";
import { logError } from "../../lib/log";

export interface RangeQuery {
  startDate?: string;
  endDate?: string;
  timeGranularity: Granularity;
  timezone?: string;
}

/**
 * The request's range (local days in its timezone, by default this month up to today), its buckets,
 * its assistant (404 when not the organization's) and the organization's data parts (`parts`, whose figures the
 * answers add). Once the request is valid, the hours not rolled up yet are rolled up in the background
 * (`background.waitUntil`) on each part (each has its own rollups and watermark); a failure is logged.
 */
export async function usageRange(
  db: Db,
  parts: Db[],
  organizationId: string,
  q: RangeQuery & { chatbot?: string; search?: string },
  background: { waitUntil(promise: Promise<unknown>): void },
) {
  const timezone = checkTimezone(q.timezone);
  const { startDate, endDate, start, end } = daysOrMonthToDate(timezone, q.startDate, q.endDate);
  if (q.chatbot) {
    // One of the assistants the summary counts and the list names: a personal one it hosts too.
    const [found] = await db
      .select({ id: chatbots.id })
      .from(chatbots)
      .where(and(eq(chatbots.id, q.chatbot), countedChatbotsCondition(organizationId)));
    if (!found) throw notFound("Assistant not found.");
  }
  for (const data of parts)
    background.waitUntil(
      rollUpIfBehind(client(data)).catch((err) => logError("usage rollup failed", { error: String(err) })),
    );
  const query: UsageQuery = { organizationId, start, end, chatbotId: q.chatbot, search: q.search || undefined };
  return { timezone, startDate, endDate, query, parts, list: () => buckets(timezone, start, end, q.timeGranularity) };
}

export type UsageRange = Awaited<ReturnType<typeof usageRange>>;

/** The scope's usage per bucket only (`includeTime=true`). */
export const usageTimeSeries = async (db: Db, scope: UsageScope, range: UsageRange) =>
  bucketRows((await usageSeries(db, range.parts, scope, range.query, range.list())).results);

export const checkSort = (scope: UsageScope, sortBy: string) => {
  if (scope === "chatbots" && sortBy === "email")
    throw fieldError("sortBy", "Assistants have no e-mail; sort by name, createdAt or a count.");
};

type UsageOrder = { by: UsageSort; descending: boolean };
type UsageWindow = { limit: number; offset: number };

const entityPage = (db: Db, scope: UsageScope, range: UsageRange, order: UsageOrder, w: UsageWindow) =>
  usageByEntity(db, range.parts, scope, range.query, order.by, order.descending, w.limit, w.offset);

/** A page of the organization's members with their usage in the range, sorted. */
export async function memberUsagePage(db: Db, range: UsageRange, order: UsageOrder, window: UsageWindow) {
  const { rows, count } = await entityPage(db, "members", range, order, window);
  const items = rows.map((r) => ({
    id: r.id,
    userId: r.user_id,
    name: r.name,
    email: r.email ?? "",
    ...usageCounts(r),
  }));
  return { count, items };
}

/** A page of the organization's assistants with their usage in the range, sorted. */
export async function chatbotUsagePage(db: Db, range: UsageRange, order: UsageOrder, window: UsageWindow) {
  const { rows, count } = await entityPage(db, "chatbots", range, order, window);
  return { count, items: rows.map((r) => ({ id: r.id, name: r.name, ...usageCounts(r) })) };
}

/**
 * The summary of a scope: totals and series, entity counts, and the organization's usage and plan. The assistants are
 * counted as the organization's record counts them (its own and the personal ones it hosts), so the two agree.
 */
export async function usageSummary(
  db: Db,
  plans: PlanSettings,
  scope: UsageScope,
  range: UsageRange,
  timeGranularity: Granularity,
) {
  const organizationId = range.query.organizationId;
  const [series, members, organization] = await Promise.all([
    usageSeries(db, range.parts, scope, range.query, range.list()),
    scope === "members"
      ? client(db)
          .prepare("SELECT count(*) AS n FROM members WHERE organization_id = ?")
          .bind(organizationId)
          .first<{ n: number }>()
      : null,
    getOrganizationRecord(db, range.parts, organizationId, plans),
  ]);
  if (!organization) throw notFound();
  return {
    startDate: range.startDate,
    endDate: range.endDate,
    timeGranularity,
    timezone: range.timezone,
    total: series.total,
    count: scope === "members" ? (members?.n ?? 0) : organization.usageStatistics.chatbotsCount,
    active: series.active,
    results: bucketRows(series.results),
    usageStatistics: organization.usageStatistics,
    organizationPlan: organization.organizationPlan,
  };
}
