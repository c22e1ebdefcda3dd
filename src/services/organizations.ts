import { and, eq, sum } from "drizzle-orm";
import type { Bindings } from "../env";
import { knowledgeBases, sqlDatabases } from "../db/schema";
import { deletePrefix } from "../lib/r2";
import { deleteKnowledgeBase } from "./knowledge-content";
import { managedDatabase } from "./sql/write";
import type { Db } from "../env";
import { organizations, organizationUsage } from "../db/schema";
import { ms } from "../lib/time";
import { countedChatbots } from "./chatbots/quota";
import { CLEANUP_AFTER_DAYS, planOf, type PlanSettings } from "./plans";

type OrganizationRow = typeof organizations.$inferSelect;
const DAY = 86_400_000;

export const currentMonth = (now = Date.now()) => new Date(now).toISOString().slice(0, 7);

/** The organization record with its usage statistics and plan (spec "Organization"). */
export async function organizationRecord(db: Db, org: OrganizationRow, plans: PlanSettings, now = Date.now()) {
  const [chatbotsCount, [usage], [allTime]] = await Promise.all([
    countedChatbots(db, org.id),
    db
      .select({ words: organizationUsage.wordsCount, conversations: organizationUsage.conversationsCount })
      .from(organizationUsage)
      .where(and(eq(organizationUsage.organizationId, org.id), eq(organizationUsage.month, currentMonth(now)))),
    db
      .select({ bytes: sum(organizationUsage.uploadedBytes) })
      .from(organizationUsage)
      .where(eq(organizationUsage.organizationId, org.id)),
  ]);
  const plan = planOf(plans, org.planId);
  const expiredAt = org.planExpiredAt;
  const lapsed = expiredAt !== null && expiredAt <= now;
  const noActivePlanDays = lapsed ? Math.floor((now - expiredAt) / DAY) : 0;
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
      currentMonthUsedWordsCountTotal: usage?.words ?? 0,
      currentMonthUsedConversationsCountTotal: usage?.conversations ?? 0,
      availableUploadFilesSizeTotal: plan.uploadBytes,
      usedUploadFileSizeTotal: Number(allTime?.bytes ?? 0),
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
    cleanupRemainingDays: lapsed ? Math.max(0, CLEANUP_AFTER_DAYS - noActivePlanDays) : null,
    estimatedCleanupDate: lapsed ? new Date(expiredAt + CLEANUP_AFTER_DAYS * DAY).toISOString().slice(0, 10) : null,
    approvalStatus: org.approvalStatus,
    companyName: org.companyName,
    taxId: org.taxId,
    contactPhone: org.contactPhone,
    applicationMetadata: org.applicationMetadata ?? {},
    invitationCode: org.invitationCode,
  };
}

export async function getOrganizationRecord(db: Db, id: string, plans: PlanSettings) {
  const [org] = await db.select().from(organizations).where(eq(organizations.id, id));
  return org ? organizationRecord(db, org, plans) : null;
}

/**
 * Deletes an organization. Its rows go with it (ON DELETE CASCADE); what lives outside D1 is removed
 * too: knowledge bases' vectors and file bytes (purge jobs, as when a base is deleted), and, once
 * the rows are gone, its public files, skill packages, uploads and managed SQL databases.
 * Returns the removal of the latter, for the caller to wait on in the background.
 */
export async function deleteOrganization(
  env: Bindings,
  db: Db,
  organizationId: string,
): Promise<() => Promise<unknown>> {
  const [bases, managed] = await Promise.all([
    db.select({ id: knowledgeBases.id }).from(knowledgeBases).where(eq(knowledgeBases.organizationId, organizationId)),
    db
      .select({ id: sqlDatabases.id })
      .from(sqlDatabases)
      .where(and(eq(sqlDatabases.organizationId, organizationId), eq(sqlDatabases.databaseType, "managed"))),
  ]);
  for (const base of bases) await deleteKnowledgeBase(env, db, base.id);
  await db.delete(organizations).where(eq(organizations.id, organizationId));
  return () =>
    Promise.all([
      ...[`public/organizations/${organizationId}/`, `skills/${organizationId}/`, `uploads/${organizationId}/`].map(
        (prefix) => deletePrefix(env.FILES, prefix),
      ),
      ...managed.map((row) => managedDatabase(env, row.id).destroy()),
    ]);
}
