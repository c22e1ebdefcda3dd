import { z } from "@hono/zod-openapi";
import { CountField } from "../../lib/openapi";
import { UsageStatistics } from "./organizations";

const counts = {
  conversationsCount: CountField("Conversations started"),
  messagesCount: CountField("Messages, both directions", 80),
  incomingMessagesCount: CountField("Messages received", 41),
  outgoingMessagesCount: CountField("Messages sent", 39),
  repliesCount: CountField("Assistant replies", 39),
  failedRepliesCount: CountField("Failed replies", 0),
  wordsCount: CountField("Words of the assistant's replies", 2300),
  requestsCount: CountField("Language-model requests", 39),
  inputTokens: CountField("Prompt tokens", 20000),
  outputTokens: CountField("Completion tokens", 3000),
  totalTokens: CountField("Input plus output tokens", 23000),
};

export const UsageCountsSchema = z
  .object(counts)
  .openapi("UsageCounts", { description: "The figures of the whole range" });

export const UsageBucketSchema = z
  .object({
    time: z.string().openapi({
      description: "The bucket in `timezone`: YYYY-MM-DDTHH:00, YYYY-MM-DD or YYYY-MM",
      example: "2026-01-05",
    }),
    startAt: z.string().openapi({ description: "Bucket start, epoch ms", example: "1767571200000" }),
    endAt: z.string().openapi({ description: "Bucket end, epoch ms (exclusive)", example: "1767657600000" }),
    ...counts,
  })
  .openapi("UsageBucket");

export const MemberUsageSchema = z
  .object({
    id: z.string().openapi({ description: "Member id", example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" }),
    userId: z
      .string()
      .openapi({ description: "The member's user id", example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3e" }),
    name: z.string().openapi({ description: "The member's name", example: "Ada Lovelace" }),
    email: z.string().openapi({ description: "The member's e-mail address", example: "ada@example.com" }),
    ...counts,
  })
  .openapi("MemberUsage");

export const ChatbotUsageSchema = z
  .object({
    id: z.string().openapi({ description: "Assistant id", example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" }),
    name: z.string().openapi({ description: "The assistant's name", example: "Support" }),
    ...counts,
  })
  .openapi("ChatbotUsage");

const plan = z
  .object({
    id: z.string().openapi({
      description: "Plan id: a key of the operator's `PLANS`, or `self-hosted` when no plans are configured",
      example: "self-hosted",
    }),
    planName: z.string().openapi({ description: "The plan's display name", example: "Self-hosted" }),
    planType: z.string().openapi({ description: "The plan's type", example: "self_hosted" }),
    expiredAt: z
      .string()
      .nullable()
      .openapi({ description: "When the plan expires, milliseconds since the epoch; null: never", example: null }),
  })
  .openapi({ description: "The organization's current plan, as in its record" });

const summary = (entity: "members" | "chatbots") =>
  z.object({
    startDate: z
      .string()
      .openapi({ description: "First day included, YYYY-MM-DD in `timezone`", example: "2026-01-01" }),
    endDate: z.string().openapi({ description: "Last day included, YYYY-MM-DD in `timezone`", example: "2026-01-31" }),
    timeGranularity: z.enum(["hour", "day", "month"]).openapi({ description: "Bucket size, as asked", example: "day" }),
    timezone: z.string().openapi({
      description: "IANA timezone of the days, by its canonical name (Asia/Taipei for asia/taipei; default UTC)",
      example: "UTC",
    }),
    total: UsageCountsSchema,
    [`${entity}Count`]: CountField(
      entity === "members"
        ? "Members of the organization"
        : "Assistants the organization has: its own and the personal ones its default inboxes host (as " +
            "`usageStatistics.chatbotsCount`)",
      8,
    ),
    [`active${entity === "members" ? "Members" : "Chatbots"}Count`]: CountField(
      entity === "members"
        ? "Current members with usage in the range (a removed member's usage stays in `total`, not here)"
        : "Current assistants with usage in the range (a deleted assistant's usage stays in `total`, not here)",
      5,
    ),
    results: z
      .array(UsageBucketSchema)
      .openapi({ description: "The figures of each bucket of the range, oldest first" }),
    usageStatistics: UsageStatistics,
    organizationPlan: plan,
  });

export const MembersSummarySchema = summary("members").openapi("MembersUsageSummary");
export const ChatbotsSummarySchema = summary("chatbots").openapi("ChatbotsUsageSummary");

export type UsageCounts = z.infer<typeof UsageCountsSchema>;
