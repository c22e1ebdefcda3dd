import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { fieldError } from "../../lib/errors";
import { ms } from "../../lib/time";
import { chatbotWith } from "./access";
import { buckets, checkTimezone, localDayStart, parseInstant } from "../../services/statistics/buckets";
import { dataParts } from "../../services/shards/parts";
import { chatbotFiguresBody, chatbotStatistics } from "../../services/statistics/chatbot";
import { ChatbotParams, ChatbotStatisticsQuery, ChatbotStatisticsSchema, STATISTICS_TAG } from "./schema";

const route = createRoute({
  method: "get",
  path: "/chatbots/{chatbotPk}/statistics/",
  tags: [STATISTICS_TAG],
  summary: "Conversation statistics of an assistant, per hour, day or month",
  description:
    "Needs `statistics.view` and access to the assistant. Read from hourly counters kept as messages are stored; " +
    "buckets are local to `timezone` (default UTC). Defaults: the last 30 days (today included) by day. " +
    "`total` covers the whole range (its `contactsCount` counts each contact once). Test conversations " +
    "(`isTest`) are left out unless `includeTests=true`.",
  request: { params: ChatbotParams, query: ChatbotStatisticsQuery },
  responses: { 200: json(ChatbotStatisticsSchema, "Counts per bucket and in total"), ...errorResponses(400, 403, 404) },
});

export const registerChatbotStatistics = (r: Router) =>
  r.openapi(route, async (c) => {
    const { access, chatbot } = await chatbotWith(c, c.req.valid("param").chatbotPk, "statistics.view");
    const q = c.req.valid("query");
    const timezone = checkTimezone(q.timezone);
    const now = Date.now();
    const end = q.datetimeTo
      ? parseInstant(q.datetimeTo, timezone, "datetimeTo", true)
      : localDayStart(timezone, now, 1);
    const start = q.datetimeFrom
      ? parseInstant(q.datetimeFrom, timezone, "datetimeFrom")
      : localDayStart(timezone, now, -29);
    if (end <= start) throw fieldError("datetimeTo", "datetimeTo must be after datetimeFrom.");
    const list = buckets(timezone, start, end, q.timeGranularity);
    const figures = await chatbotStatistics(await dataParts(c.env, access.organizationId), chatbot.id, list, {
      includeTests: q.includeTests === "true",
    });
    const range = { datetimeFrom: ms(list[0].start)!, datetimeTo: ms(list[list.length - 1].end)! };
    return c.json(chatbotFiguresBody(chatbot, { timeGranularity: q.timeGranularity, timezone }, range, figures), 200);
  });
