import { z } from "@hono/zod-openapi";
import { booleanQuery } from "../../lib/boolean-query";
import { PageQuery, pageOf } from "../../lib/pagination";
import { OrganizationParams } from "../members/schema";
import { ChatbotUsageSchema, MemberUsageSchema, UsageBucketSchema } from "../../services/records/usage-statistics";
import { Timezone } from "../statistics/schema";

export const USAGE_TAG = "Usage statistics";
export { OrganizationParams };

const DAY = (description: string, example: string) => z.string().optional().openapi({ description, example });

const range = {
  startDate: DAY("First day, YYYY-MM-DD in `timezone` (default: the first of the current month)", "2026-01-01"),
  endDate: DAY("Last day, YYYY-MM-DD in `timezone`, included (default: today)", "2026-01-31"),
  timeGranularity: z
    .enum(["hour", "day", "month"])
    .default("day")
    .openapi({ description: "Bucket size of time series (default day)", example: "day" }),
  timezone: Timezone,
};

export const UsageSummaryQuery = z.object(range);

export const UsageListQuery = z.object({
  ...range,
  ...PageQuery.shape,
  chatbot: z
    .uuid()
    .optional()
    .openapi({ description: "Only the usage of this assistant", example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" }),
  includeTime: booleanQuery({
    default: "false",
    description: "`true`: only the time series (no entities), not paginated",
    example: "false",
  }),
  search: z
    .string()
    .max(200)
    .optional()
    .openapi({ description: "Members: id, name or e-mail; assistants: id or name", example: "ada" }),
  sortBy: z
    .enum([
      "name",
      "email",
      "createdAt",
      "conversationsCount",
      "messagesCount",
      "wordsCount",
      "totalTokens",
      "requestsCount",
    ])
    .default("wordsCount")
    .openapi({ description: "Sort field (default wordsCount)", example: "wordsCount" }),
  sortOrder: z
    .enum(["asc", "desc"])
    .default("desc")
    .openapi({ description: "Sort order (default desc)", example: "desc" }),
});

export const MemberUsageAnswer = z
  .union([pageOf(MemberUsageSchema, "MemberUsagePage"), z.array(UsageBucketSchema)])
  .openapi({ description: "A page of members, or with includeTime=true the time series only" });
export const ChatbotUsageAnswer = z
  .union([pageOf(ChatbotUsageSchema, "ChatbotUsagePage"), z.array(UsageBucketSchema)])
  .openapi({ description: "A page of assistants, or with includeTime=true the time series only" });
