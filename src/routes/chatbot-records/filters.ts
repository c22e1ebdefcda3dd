import type { z } from "@hono/zod-openapi";
import { checkTimezone, exactDayRange } from "../../services/statistics/buckets";
import type { RecordFilters } from "../../services/statistics/records";
import type { RecordFilterQuery } from "./schema";

/**
 * The query's filters for an assistant: local days to a UTC range (400 on a bad date or order), from local midnight
 * to local midnight, since records carry exact times (not the hourly counters' rounded days).
 */
export function recordFilters(chatbotId: string, q: z.infer<typeof RecordFilterQuery>): RecordFilters {
  const timezone = checkTimezone(q.timezone);
  const { start, end } = exactDayRange(timezone, q.startDate, q.endDate, "startDate", "endDate");
  return { chatbotId, start, end, userMessage: q.userMessage || undefined, botMessage: q.botMessage || undefined };
}
