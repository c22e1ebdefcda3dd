// An assistant's statistics endpoints: the range a query asks for, cut into buckets, and the figures over it
// (chatbot.ts) in the body the endpoints answer (chatbotFiguresBody).
import type { Db } from "../../env";
import { fieldError } from "../../lib/errors";
import { ms } from "../../lib/time";
import { type Granularity, buckets, checkTimezone, dayRange, localDayStart, parseInstant } from "./buckets";
import { chatbotFiguresBody, chatbotStatistics, llmUsageStatistics } from "./chatbot";

type Chatbot = { id: string; name: string };

/** What the traffic statistics endpoint asks (its query). */
export interface TrafficQuery {
  datetimeFrom?: string;
  datetimeTo?: string;
  timeGranularity: Granularity;
  timezone?: string;
  includeTests: "true" | "false";
}

/**
 * The assistant's traffic from `datetimeFrom` (by default the start of the local day 29 days before today's) to
 * `datetimeTo` (by default the end of today), in `timezone`'s buckets; the range answered is the buckets' (400 when
 * it ends before it starts).
 */
export async function trafficFigures(parts: Db[], chatbot: Chatbot, q: TrafficQuery, now = Date.now()) {
  const timezone = checkTimezone(q.timezone);
  const end = q.datetimeTo ? parseInstant(q.datetimeTo, timezone, "datetimeTo", true) : localDayStart(timezone, now, 1);
  const start = q.datetimeFrom
    ? parseInstant(q.datetimeFrom, timezone, "datetimeFrom")
    : localDayStart(timezone, now, -29);
  if (end <= start) throw fieldError("datetimeTo", "datetimeTo must be after datetimeFrom.");
  const list = buckets(timezone, start, end, q.timeGranularity);
  const figures = await chatbotStatistics(parts, chatbot.id, list, { includeTests: q.includeTests === "true" });
  const range = { datetimeFrom: ms(list[0].start)!, datetimeTo: ms(list[list.length - 1].end)! };
  return chatbotFiguresBody(chatbot, { timeGranularity: q.timeGranularity, timezone }, range, figures);
}

/** What the language-model usage endpoint asks (its query). */
export interface LlmUsageQuery {
  startDate: string;
  endDate?: string;
  timeGranularity: "day" | "month";
  timezone?: string;
  includeTests: "true" | "false";
}

/** The assistant's language-model usage over the local days `startDate` to `endDate` (by default that one day). */
export async function llmUsageFigures(db: Db, parts: Db[], chatbot: Chatbot, q: LlmUsageQuery) {
  const timezone = checkTimezone(q.timezone);
  const { start, end } = dayRange(timezone, q.startDate, q.endDate, "startDate", "endDate");
  const list = buckets(timezone, start, end, q.timeGranularity);
  const figures = await llmUsageStatistics(db, parts, chatbot.id, list, { includeTests: q.includeTests === "true" });
  const range = { startDate: q.startDate, endDate: q.endDate ?? q.startDate };
  return chatbotFiguresBody(chatbot, { timeGranularity: q.timeGranularity, timezone }, range, figures);
}
