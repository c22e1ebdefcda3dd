import type { Context } from "hono";
import type { z } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { notFound } from "../../lib/errors";
import { orgAccess, requirePermission } from "../../services/access";
import { checkTimezone, dayRange, localDate } from "../../services/statistics/buckets";
import type { HumanQuery } from "../../services/statistics/human";
import type { HumanStatisticsQuery } from "./schema";

const FILTERS = [
  ["inbox", "inboxes", "Inbox not found."],
  ["chatbot", "chatbots", "Assistant not found."],
  ["label", "labels", "Label not found."],
] as const;

/** Access (`statistics.view` in the organization of the path), the range and the filters, each the organization's (else 404). */
export async function humanContext(
  c: Context<AppEnv>,
  organizationPk: string,
  q: z.infer<typeof HumanStatisticsQuery>,
) {
  const access = await orgAccess(c, organizationPk);
  requirePermission(access, "statistics.view");
  const timezone = checkTimezone(q.timezone);
  const today = localDate(timezone, Date.now());
  const startDate = q.startDate ?? `${today.slice(0, 7)}-01`;
  const endDate = q.endDate ?? (startDate > today ? startDate : today);
  const { start, end } = dayRange(timezone, startDate, endDate, "startDate", "endDate");
  for (const [field, table, detail] of FILTERS) {
    const id = q[field];
    if (!id) continue;
    const found = await c.env.DB.prepare(`SELECT 1 AS x FROM ${table} WHERE id = ? AND organization_id = ?`)
      .bind(id, access.organizationId)
      .first();
    if (!found) throw notFound(detail);
  }
  const query: HumanQuery = {
    organizationId: access.organizationId,
    start,
    end,
    timezone,
    groupBy: q.groupBy,
    inboxId: q.inbox,
    chatbotId: q.chatbot,
    labelId: q.label,
    includeTests: q.includeTests === "true",
  };
  return { startDate, endDate, timezone, query };
}
