import { z } from "@hono/zod-openapi";
import { booleanQuery } from "../../lib/boolean-query";
import { CountField, IdName, uuidParam } from "../../lib/openapi";

export const STATISTICS_TAG = "Statistics";

export const ChatbotParams = z.object({ chatbotPk: uuidParam("chatbotPk", "Assistant id") });

const DAY = z
  .string()
  .openapi({ description: "A date, YYYY-MM-DD (a local day in `timezone`)", example: "2026-01-01" });

export const Timezone = z
  .string()
  .max(64)
  .optional()
  .openapi({ description: "IANA timezone the buckets and dates are read in (default UTC)", example: "Asia/Taipei" });

/** Test conversations (the console's try-it) are left out unless asked for (docs/decisions.md, "Test traffic apart").
 * */
const IncludeTests = booleanQuery({
  default: "false",
  description:
    "`true` also counts test conversations (`isTest`, the console's try-it); default `false` leaves them out",
  example: "false",
});

export const ChatbotStatisticsQuery = z.object({
  datetimeFrom: z.string().max(40).optional().openapi({
    description:
      "Start (inclusive): ISO 8601 date-time, a date YYYY-MM-DD or epoch ms; default 29 days before today's start",
    example: "2026-01-01T00:00:00Z",
  }),
  datetimeTo: z.string().max(40).optional().openapi({
    description: "End (exclusive; a date means the end of that day); default the end of today",
    example: "2026-02-01T00:00:00Z",
  }),
  timeGranularity: z
    .enum(["hour", "day", "month"])
    .default("day")
    .openapi({ description: "Bucket size (default day); at most 1,500 buckets", example: "day" }),
  timezone: Timezone,
  includeTests: IncludeTests,
});

const bucketFields = {
  time: z.string().openapi({
    description: "The bucket in `timezone`: YYYY-MM-DDTHH:00, YYYY-MM-DD or YYYY-MM",
    example: "2026-01-05",
  }),
  startAt: z.string().openapi({ description: "Bucket start, epoch ms (inclusive)", example: "1767571200000" }),
  endAt: z.string().openapi({ description: "Bucket end, epoch ms (exclusive)", example: "1767657600000" }),
};

const chatbotCounts = {
  conversationsCount: CountField("Conversations started"),
  incomingMessagesCount: CountField("Messages received (visitors and contacts)", 40),
  outgoingMessagesCount: CountField("Messages sent (assistant replies and human agents)", 38),
  messagesCount: CountField("Incoming plus outgoing messages", 78),
  contactsCount: CountField("Distinct contacts who wrote (over the whole bucket or range)", 9),
  repliesCount: CountField("Assistant replies", 37),
  averageReplyTime: z.number().nullable().openapi({
    description: "Mean seconds from a question to the assistant's reply; null without replies",
    example: 1.42,
  }),
  failedRepliesCount: CountField("Replies that failed (model or tool errors)", 1),
  likesCount: CountField("Replies rated like", 5),
  dislikesCount: CountField("Replies rated dislike", 1),
  toolCallsCount: CountField("Tool calls made by agent replies", 3),
};

export const ChatbotCountsSchema = z
  .object(chatbotCounts)
  .openapi("ChatbotStatisticsCounts", { description: "The figures of the whole range" });

export const ChatbotStatisticsSchema = z
  .object({
    chatbot: IdName,
    timeGranularity: z.enum(["hour", "day", "month"]).openapi({ description: "Bucket size, as asked", example: "day" }),
    timezone: z.string().openapi({
      description: "IANA timezone of the buckets, by its canonical name (Asia/Taipei for asia/taipei; default UTC)",
      example: "UTC",
    }),
    datetimeFrom: z.string().openapi({ description: "Range start, epoch ms (on an hour)", example: "1767225600000" }),
    datetimeTo: z.string().openapi({ description: "Range end, epoch ms (exclusive)", example: "1769904000000" }),
    total: ChatbotCountsSchema,
    results: z
      .array(z.object({ ...bucketFields, ...chatbotCounts }).openapi("ChatbotStatisticsBucket"))
      .openapi({ description: "The figures of each bucket of the range, oldest first, empty buckets included" }),
  })
  .openapi("ChatbotStatistics");

export const LlmUsageQuery = z.object({
  startDate: DAY,
  endDate: DAY.optional().openapi({
    description: "Last day included, YYYY-MM-DD (default: startDate)",
    example: "2026-01-31",
  }),
  timeGranularity: z.enum(["day", "month"]).openapi({ description: "Bucket size", example: "day" }),
  timezone: Timezone,
  includeTests: IncludeTests,
});

const tokenCounts = {
  requestsCount: CountField("Model requests (one per reply)", 37),
  inputTokens: CountField("Prompt tokens as the provider reported them", 21000),
  outputTokens: CountField("Completion tokens as the provider reported them", 3100),
  totalTokens: CountField("Input plus output tokens", 24100),
  wordsCount: CountField("Words of the replies (what monthly word quotas count)", 2600),
};

const ModelTokens = z.object({ model: IdName, ...tokenCounts }).openapi("LlmUsageByModel");
const byModel = () => z.array(ModelTokens).openapi({ description: "The same figures for each model that answered" });

export const LlmUsageSchema = z
  .object({
    chatbot: IdName,
    timeGranularity: z.enum(["day", "month"]).openapi({ description: "Bucket size, as asked", example: "day" }),
    timezone: z.string().openapi({
      description: "IANA timezone of the days, by its canonical name (Asia/Taipei for asia/taipei; default UTC)",
      example: "UTC",
    }),
    startDate: z.string().openapi({ description: "First day included, YYYY-MM-DD", example: "2026-01-01" }),
    endDate: z.string().openapi({ description: "Last day included, YYYY-MM-DD", example: "2026-01-31" }),
    total: z
      .object({ ...tokenCounts, models: byModel() })
      .openapi("LlmUsageTotal", { description: "The figures of the whole range" }),
    results: z
      .array(z.object({ ...bucketFields, ...tokenCounts, models: byModel() }).openapi("LlmUsageBucket"))
      .openapi({ description: "The figures of each bucket of the range, oldest first" }),
  })
  .openapi("LlmUsageStatistics");
