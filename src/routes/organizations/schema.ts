import { z } from "@hono/zod-openapi";
import { Timestamp } from "../../lib/openapi";

const flag = (description: string) => z.boolean().openapi({ description, example: false });
const decimal = (description: string) => z.string().openapi({ description, example: "0.00" });
const days = (description: string) => z.number().int().nullable().openapi({ description, example: null });

export const UsageStatistics = z
  .object({
    chatbotsCount: z.number().int().openapi({ example: 2 }),
    countableChatbotsCount: z.number().int().openapi({ example: 2 }),
    exemptChatbotsByMode: z
      .record(z.string(), z.number().int())
      .openapi({ description: "Assistants not counted against the limit, by reply mode", example: {} }),
    canCreateChatbot: z.boolean().openapi({ example: true }),
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
    currentMonthUsedConversationsCountTotal: z.number().int().openapi({ example: 12 }),
    availableUploadFilesSizeTotal: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "Upload allowance in bytes; null: no limit", example: null }),
    usedUploadFileSizeTotal: z.number().int().openapi({ description: "Bytes uploaded", example: 0 }),
  })
  .openapi("UsageStatistics");

export const OrganizationSchema = z
  .object({
    id: z.string().openapi({ example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" }),
    name: z.string().openapi({ example: "Acme" }),
    createdAt: Timestamp,
    compactLogo: z.string().nullable().openapi({ example: "https://cdn.example.com/acme-compact.png" }),
    fullLogo: z.string().nullable().openapi({ example: "https://cdn.example.com/acme.png" }),
    themePrimaryColor: z.string().nullable().openapi({ example: "#3366FF" }),
    usageStatistics: UsageStatistics,
    organizationPlan: z
      .object({
        id: z.string().openapi({
          description: "Plan id: a key of the operator's `PLANS`, or `self-hosted` when no plans are configured",
          example: "self-hosted",
        }),
        planName: z.string().openapi({ example: "Self-hosted" }),
        planType: z.string().openapi({ example: "self_hosted" }),
        expiredAt: Timestamp.nullable(),
      })
      .openapi({ description: "Current plan" }),
    creditWallet: z.object({ id: z.string() }).openapi({ example: { id: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" } }),
    gptInboxId: z.string().nullable().openapi({ example: null }),
    canUseCustomElasticsearch: flag("Custom Elasticsearch vector stores"),
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
    cleanupRemainingDays: days("Days until data of a lapsed plan is cleaned up"),
    estimatedCleanupDate: z
      .string()
      .nullable()
      .openapi({ description: "ISO date of the cleanup of a lapsed plan", example: null }),
    approvalStatus: z.enum(["pending", "approved", "rejected"]).openapi({ example: "approved" }),
    companyName: z.string().nullable().openapi({ example: "Acme Inc." }),
    taxId: z.string().nullable().openapi({ description: "8 digits, unverified", example: "12345678" }),
    contactPhone: z.string().nullable().openapi({ example: "+1 555 0100" }),
    applicationMetadata: z.record(z.string(), z.unknown()).openapi({ example: {} }),
    invitationCode: z.string().nullable().openapi({ example: null }),
  })
  .openapi("Organization");

const uri = (description: string) =>
  z.url().nullable().optional().openapi({ description, example: "https://cdn.example.com/logo.png" });
const hexColor = z
  .string()
  .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, "Must be a HEX colour such as #3366FF")
  .nullable()
  .optional()
  .openapi({ description: "HEX colour", example: "#3366FF" });

/** Fields an organization's owner (or organization.manage) may write. */
export const OrganizationWrite = z.object({
  name: z.string().trim().min(1).max(200).openapi({ example: "Acme" }),
  compactLogo: uri("Compact logo URL"),
  fullLogo: uri("Full logo URL"),
  themePrimaryColor: hexColor,
  companyName: z.string().max(200).nullable().optional().openapi({ example: "Acme Inc." }),
  taxId: z
    .string()
    .regex(/^\d{8}$/, "Must be 8 digits")
    .nullable()
    .optional()
    .openapi({ example: "12345678" }),
  contactPhone: z.string().max(50).nullable().optional().openapi({ example: "+1 555 0100" }),
  applicationMetadata: z.record(z.string(), z.unknown()).nullable().optional().openapi({ example: {} }),
  invitationCode: z.string().max(100).nullable().optional().openapi({ example: null }),
});

/** Plan and feature fields: platform staff only (403 for anyone else who sends them). */
export const OrganizationStaffWrite = z.object({
  planId: z
    .string()
    .min(1)
    .max(40)
    .optional()
    .openapi({ description: "Staff only: one of the plans the operator configured (`PLANS`)", example: "enterprise" }),
  planExpiredAt: z
    .number()
    .int()
    .nullable()
    .optional()
    .openapi({ description: "Staff only: plan expiry, epoch ms", example: null }),
  approvalStatus: z
    .enum(["pending", "approved", "rejected"])
    .optional()
    .openapi({ description: "Staff only", example: "approved" }),
  canUseCustomElasticsearch: z.boolean().optional().openapi({ description: "Staff only", example: false }),
  canUseVoiceAgent: z.boolean().optional().openapi({ description: "Staff only", example: false }),
  canUseMeetingRecords: z.boolean().optional().openapi({ description: "Staff only", example: false }),
  canUseCallCenter: z.boolean().optional().openapi({ description: "Staff only", example: false }),
  canUseHookSystem: z.boolean().optional().openapi({ description: "Staff only", example: false }),
  canUseAiGateway: z.boolean().optional().openapi({ description: "Staff only", example: true }),
  canUseMaigptWorkspaceMount: z.boolean().optional().openapi({ description: "Staff only", example: false }),
  gatewayServiceFeePercent: z
    .string()
    .regex(/^\d{1,3}(\.\d{1,2})?$/)
    .optional()
    .openapi({ description: "Staff only", example: "1.50" }),
  gatewayTrafficFeePercent: z
    .string()
    .regex(/^\d{1,3}(\.\d{1,2})?$/)
    .optional()
    .openapi({ description: "Staff only", example: "0.00" }),
  platformProcessingFeePercent: z
    .string()
    .regex(/^\d{1,3}(\.\d{1,2})?$/)
    .optional()
    .openapi({ description: "Staff only", example: "0.00" }),
  platformProcessingFeeEnabled: z.boolean().optional().openapi({ description: "Staff only", example: false }),
});
