import { z } from "@hono/zod-openapi";
import type { organizations } from "../../db/schema";
import { Timestamp } from "../../lib/openapi";
import { ms } from "../../lib/time";
import { planLapsed, planOf, type PlanSettings } from "../plans";

const flag = (description: string) => z.boolean().openapi({ description, example: false });
const decimal = (description: string) => z.string().openapi({ description, example: "0.00" });
const days = (description: string) => z.number().int().nullable().openapi({ description, example: null });

export const UsageStatistics = z
  .object({
    chatbotsCount: z.number().int().openapi({
      description: "Assistants the organization has: its own and the personal ones its default inboxes host",
      example: 2,
    }),
    countableChatbotsCount: z.number().int().openapi({
      description: "Of those, the ones counted against `createChatbotLimit`: all of them (none is exempt)",
      example: 2,
    }),
    exemptChatbotsByMode: z
      .record(z.string(), z.number().int())
      .openapi({ description: "Assistants not counted against the limit, by reply mode", example: {} }),
    canCreateChatbot: z.boolean().openapi({
      description: "Whether one more assistant may be created now: under the limit and the plan not lapsed",
      example: true,
    }),
    createChatbotLimit: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "Assistants the plan allows; null: no limit (no plans configured)", example: null }),
    currentMonthWordsCountTotal: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "Words allowed this month; null: no limit", example: null }),
    currentMonthUsedWordsCountTotal: z.number().int().openapi({ description: "Words used this month", example: 1234 }),
    currentMonthUsedConversationsCountTotal: z.number().int().openapi({
      description: "Conversations started this calendar month (UTC)",
      example: 12,
    }),
    availableUploadFilesSizeTotal: z
      .number()
      .int()
      .nullable()
      .openapi({
        description:
          "The plan's upload allowance in bytes: an upload that would take usedUploadFileSizeTotal past it is 403; " +
          "null: no limit",
        example: null,
      }),
    usedUploadFileSizeTotal: z
      .number()
      .int()
      .openapi({
        description:
          "Bytes the organization's uploads store now (uploaded files, knowledge base files, skill packages, " +
          "published images); deleting a file frees its bytes",
        example: 0,
      }),
  })
  .openapi("UsageStatistics", {
    description: "The organization's assistants and this month's usage against its plan's allowances",
  });

export const OrganizationSchema = z
  .object({
    id: z.string().openapi({ description: "The organization's id", example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" }),
    name: z.string().openapi({ description: "The organization's name", example: "Acme" }),
    createdAt: Timestamp,
    compactLogo: z.string().nullable().openapi({
      description: "URL of the compact (square) logo; null: none set",
      example: "https://cdn.example.com/acme-compact.png",
    }),
    fullLogo: z
      .string()
      .nullable()
      .openapi({ description: "URL of the full logo; null: none set", example: "https://cdn.example.com/acme.png" }),
    themePrimaryColor: z
      .string()
      .nullable()
      .openapi({ description: "The console's primary colour, HEX; null: the default", example: "#3366FF" }),
    usageStatistics: UsageStatistics,
    organizationPlan: z
      .object({
        id: z.string().openapi({
          description: "Plan id: a key of the operator's `PLANS`, or `self-hosted` when no plans are configured",
          example: "self-hosted",
        }),
        planName: z.string().openapi({
          description: "The plan's display name from `PLANS` (its id when not set there)",
          example: "Self-hosted",
        }),
        planType: z.string().openapi({
          description: "The plan's type from `PLANS` (its id when not set there); `trial` makes `isTrial` true",
          example: "self_hosted",
        }),
        expiredAt: Timestamp.nullable(),
      })
      .openapi({ description: "Current plan" }),
    creditWallet: z
      .object({ id: z.string().openapi({ description: "The wallet's id, given when the organization is created" }) })
      .openapi({
        description: "The organization's credit wallet; only its id, which nothing else uses yet",
        example: { id: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" },
      }),
    gptInboxId: z
      .string()
      .nullable()
      .openapi({ description: "Id of a GPT inbox, kept for compatibility: nothing sets it, so null", example: null }),
    canUseCustomElasticsearch: flag("Elasticsearch and OpenSearch vector stores for knowledge bases"),
    canUseVoiceAgent: flag("Voice agents"),
    canUseMeetingRecords: flag("Meeting records"),
    canUseCallCenter: flag("Call center"),
    canUseHookSystem: flag("Hook system"),
    canUseAiGateway: flag("OpenAI-compatible gateway at /api/v1/chat/completions"),
    canUseAgentTeams: flag("Agent teams (read-only)"),
    canUseMaigptWorkspaceMount: flag("Workspace mount"),
    gatewayServiceFeePercent: decimal("Gateway service fee, percent"),
    gatewayTrafficFeePercent: decimal("Gateway traffic fee, percent"),
    platformProcessingFeePercent: decimal("Platform processing fee, percent"),
    platformProcessingFeeEnabled: flag("Whether the processing fee applies"),
    isTrial: flag("On a trial plan"),
    showTrialBanner: flag("Whether clients should show the trial banner"),
    expirationDays: days("Days until the plan expires; null without expiry or once lapsed"),
    noActivePlanDays: z
      .number()
      .int()
      .openapi({ description: "Days since the plan lapsed (0 while active)", example: 0 }),
    cleanupRemainingDays: days(
      "Days until the organization is deleted with its data, its plan having lapsed (0: at the next cleanup run); " +
        "null while the plan is active, or when the operator's cleanup (`LAPSED_PLAN_CLEANUP_DAYS`) is disabled",
    ),
    estimatedCleanupDate: z
      .string()
      .nullable()
      .openapi({
        description:
          "ISO date (UTC) from which the organization of a lapsed plan is deleted with its data; null while the plan " +
          "is active, or when cleanup is disabled",
        example: null,
      }),
    approvalStatus: z.enum(["pending", "approved", "rejected"]).openapi({
      description:
        "Platform staff's approval of the organization: new organizations start `pending` (the first, made at " +
        "bootstrap, `approved`); only staff change it, and putting it on a paid plan approves it. It is recorded, " +
        "and nothing here checks it",
      example: "approved",
    }),
    companyName: z
      .string()
      .nullable()
      .openapi({ description: "Registered company name; null: not given", example: "Acme Inc." }),
    taxId: z.string().nullable().openapi({ description: "8 digits, unverified", example: "12345678" }),
    contactPhone: z
      .string()
      .nullable()
      .openapi({ description: "Contact phone number as written; null: not given", example: "+1 555 0100" }),
    applicationMetadata: z
      .record(z.string(), z.unknown())
      .openapi({ description: "Your own data about the organization, as last written; {} when none", example: {} }),
    invitationCode: z.string().nullable().openapi({
      description: "The invitation code stored with the organization; it grants nothing. Null: none",
      example: null,
    }),
  })
  .openapi("Organization", {
    description: "An organization: the workspace its members, assistants and data belong to",
  });

export type OrganizationRecord = z.infer<typeof OrganizationSchema>;

/** What an organization's record counts: its assistants, this month's usage and the bytes its uploads store. */
export interface OrganizationUsage {
  chatbotsCount: number;
  words: number;
  conversations: number;
  uploadedBytes: number;
}

const DAY = 86_400_000;

/** The organization record with its usage statistics and plan (spec "Organization"). */
export function organizationRecordOf(
  org: typeof organizations.$inferSelect,
  usage: OrganizationUsage,
  plans: PlanSettings,
  now: number,
): OrganizationRecord {
  const { chatbotsCount } = usage;
  const plan = planOf(plans, org.planId);
  const expiredAt = org.planExpiredAt;
  const lapsed = planLapsed(expiredAt, now);
  const noActivePlanDays = lapsed ? Math.floor((now - expiredAt) / DAY) : 0;
  // The cleanup's countdown, when the operator set one (src/services/plans.ts, `cleanupAfterDays`).
  const cleanupDays = lapsed ? plans.cleanupAfterDays : null;
  const isTrial = plan.planType === "trial";
  return {
    id: org.id,
    name: org.name,
    createdAt: ms(org.createdAt)!,
    compactLogo: org.compactLogo,
    fullLogo: org.fullLogo,
    themePrimaryColor: org.themePrimaryColor,
    usageStatistics: {
      chatbotsCount,
      countableChatbotsCount: chatbotsCount,
      exemptChatbotsByMode: {},
      canCreateChatbot: (plan.createChatbotLimit === null || chatbotsCount < plan.createChatbotLimit) && !lapsed,
      createChatbotLimit: plan.createChatbotLimit,
      currentMonthWordsCountTotal: plan.monthlyWords,
      currentMonthUsedWordsCountTotal: usage.words,
      currentMonthUsedConversationsCountTotal: usage.conversations,
      availableUploadFilesSizeTotal: plan.uploadBytes,
      usedUploadFileSizeTotal: usage.uploadedBytes,
    },
    organizationPlan: { id: plan.id, planName: plan.planName, planType: plan.planType, expiredAt: ms(expiredAt) },
    creditWallet: { id: org.creditWalletId },
    gptInboxId: org.gptInboxId,
    canUseCustomElasticsearch: org.canUseCustomElasticsearch,
    canUseVoiceAgent: org.canUseVoiceAgent,
    canUseMeetingRecords: org.canUseMeetingRecords,
    canUseCallCenter: org.canUseCallCenter,
    canUseHookSystem: org.canUseHookSystem,
    canUseAiGateway: org.canUseAiGateway,
    canUseAgentTeams: org.canUseAgentTeams,
    canUseMaigptWorkspaceMount: org.canUseMaigptWorkspaceMount,
    gatewayServiceFeePercent: org.gatewayServiceFeePercent,
    gatewayTrafficFeePercent: org.gatewayTrafficFeePercent,
    platformProcessingFeePercent: org.platformProcessingFeePercent,
    platformProcessingFeeEnabled: org.platformProcessingFeeEnabled,
    isTrial,
    showTrialBanner: isTrial && !lapsed,
    expirationDays: expiredAt !== null && !lapsed ? Math.ceil((expiredAt - now) / DAY) : null,
    noActivePlanDays,
    cleanupRemainingDays: cleanupDays === null ? null : Math.max(0, cleanupDays - noActivePlanDays),
    estimatedCleanupDate:
      cleanupDays === null ? null : new Date(expiredAt! + cleanupDays * DAY).toISOString().slice(0, 10),
    approvalStatus: org.approvalStatus,
    companyName: org.companyName,
    taxId: org.taxId,
    contactPhone: org.contactPhone,
    applicationMetadata: org.applicationMetadata ?? {},
    invitationCode: org.invitationCode,
  };
}
