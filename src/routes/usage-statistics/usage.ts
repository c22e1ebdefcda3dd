import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { fieldError, notFound } from "../../lib/errors";
import { ms } from "../../lib/time";
import { orgAccess, requirePermission } from "../../services/access";
import { getOrganizationRecord } from "../../services/organizations";
import { planSettings } from "../../services/plans";
import {
  buckets,
  checkTimezone,
  dayRange,
  localDate,
  type Bucket,
  type Granularity,
} from "../../services/statistics/buckets";
import { rollUpIfBehind } from "../../services/statistics/rollup";
import {
  usageSeries,
  type UsageCounts,
  type UsageQuery,
  type UsageScope,
} from "../../services/statistics/organization";

export interface RangeQuery {
  startDate?: string;
  endDate?: string;
  timeGranularity: Granularity;
  timezone?: string;
}

/** Access (statistics.view in the organization of the path) and the query's range and buckets. */
export async function usageContext(
  c: Context<AppEnv>,
  organizationPk: string,
  q: RangeQuery & { chatbot?: string; search?: string },
) {
  const access = await orgAccess(c, organizationPk);
  requirePermission(access, "statistics.view");
  const timezone = checkTimezone(q.timezone);
  const today = localDate(timezone, Date.now());
  const startDate = q.startDate ?? `${today.slice(0, 7)}-01`;
  const endDate = q.endDate ?? (startDate > today ? startDate : today);
  const { start, end } = dayRange(timezone, startDate, endDate, "startDate", "endDate");
  if (q.chatbot) {
    const found = await c.env.DB.prepare("SELECT 1 AS x FROM chatbots WHERE id = ? AND organization_id = ?")
      .bind(q.chatbot, access.organizationId)
      .first();
    if (!found) throw notFound("Assistant not found.");
  }
  c.executionCtx.waitUntil(
    rollUpIfBehind(c.env.DB).catch((err) =>
      console.error(JSON.stringify({ level: "error", message: "usage rollup failed", error: String(err) })),
    ),
  );
  const query: UsageQuery = {
    organizationId: access.organizationId,
    start,
    end,
    chatbotId: q.chatbot,
    search: q.search || undefined,
  };
  return { access, timezone, startDate, endDate, query, list: () => buckets(timezone, start, end, q.timeGranularity) };
}

export const bucketRows = (rows: ({ bucket: Bucket } & UsageCounts)[]) =>
  rows.map(({ bucket, ...counts }) => ({
    time: bucket.time,
    startAt: ms(bucket.start)!,
    endAt: ms(bucket.end)!,
    ...counts,
  }));

/** The summary of a scope: totals and series, entity counts, and the organization's usage and plan. */
export async function usageSummary(c: Context<AppEnv>, scope: UsageScope, organizationPk: string, q: RangeQuery) {
  const ctx = await usageContext(c, organizationPk, q);
  const table = scope === "members" ? "members" : "chatbots";
  const [series, entities, organization] = await Promise.all([
    usageSeries(c.env.DB, scope, ctx.query, ctx.list()),
    c.env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE organization_id = ?`)
      .bind(ctx.access.organizationId)
      .first<{ n: number }>(),
    getOrganizationRecord(c.var.db, ctx.access.organizationId, planSettings(c.env)),
  ]);
  if (!organization) throw notFound();
  return {
    startDate: ctx.startDate,
    endDate: ctx.endDate,
    timeGranularity: q.timeGranularity,
    timezone: ctx.timezone,
    total: series.total,
    count: entities?.n ?? 0,
    active: series.active,
    results: bucketRows(series.results),
    usageStatistics: organization.usageStatistics,
    organizationPlan: organization.organizationPlan,
  };
}

export const checkSort = (scope: UsageScope, sortBy: string) => {
  if (scope === "chatbots" && sortBy === "email")
    throw fieldError("sortBy", "Assistants have no e-mail; sort by name, createdAt or a count.");
};
