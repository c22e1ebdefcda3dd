// Assistants counted against an organization's plan.
import { and, count, eq, isNull, or, sql } from "drizzle-orm";
import type { Db } from "../../env";
import { chatbots, inboxes, organizations } from "../../db/schema";
import { forbidden } from "../../lib/errors";
import { type Plan, planLapsed, planOf, type PlanSettings } from "../plans";

/** Assistants counted against an organization's plan: its own and the personal ones it hosts (their default inbox). */
export const countedChatbotsCondition = (organizationId: string) =>
  or(
    eq(chatbots.organizationId, organizationId),
    and(
      isNull(chatbots.organizationId),
      sql`${chatbots.id} in (select ${inboxes.chatbotId} from ${inboxes}
        where ${inboxes.organizationId} = ${organizationId} and ${inboxes.isDefault} = 1)`,
    ),
  );

/** How many assistants count against an organization's plan. */
export async function countedChatbots(db: Db, organizationId: string): Promise<number> {
  const [{ n }] = await db.select({ n: count() }).from(chatbots).where(countedChatbotsCondition(organizationId));
  return n;
}

/** A plan's assistant limit, for the organization whose assistants count against it. */
export interface ChatbotQuota {
  organizationId: string;
  plan: Plan;
  limit: number;
}

/** The 403 of an organization that has `n` assistants, its plan's limit reached. */
const limitReached = ({ plan, limit }: ChatbotQuota, n: number) =>
  forbidden(
    `The ${plan.planName} plan allows ${limit} assistants and the organization has ${n}; ` +
      `delete one or change the plan.`,
  );

/**
 * The plan's assistant quota, when the operator configured one (403 when reached, or when the plan
 * has lapsed). Personal assistants count against the organization that hosts their default inbox.
 * Answers the limit to hold when the assistant is written (`takeBackPastQuota`); null when none limits it.
 */
export async function requireChatbotQuota(
  db: Db,
  organizationId: string,
  plans: PlanSettings,
  now = Date.now(),
): Promise<ChatbotQuota | null> {
  if (!plans.configured) return null;
  const [[org], n] = await Promise.all([
    db
      .select({ planId: organizations.planId, expiredAt: organizations.planExpiredAt })
      .from(organizations)
      .where(eq(organizations.id, organizationId)),
    countedChatbots(db, organizationId),
  ]);
  const plan = planOf(plans, org.planId);
  if (planLapsed(org.expiredAt, now))
    throw forbidden("The organization's plan has expired; no assistant can be created.");
  if (plan.createChatbotLimit === null) return null;
  const quota = { organizationId, plan, limit: plan.createChatbotLimit };
  if (n >= quota.limit) throw limitReached(quota, n);
  return quota;
}

/**
 * For the batch that writes assistant `id` (and its default inbox): deletes it again, at the end of that batch,
 * when the organization's counted assistants, it included, are past the limit; returns it then. The check before
 * reads, it does not reserve: of assistants created at once, those written past the limit are taken back in the
 * transaction that wrote them (their links cascade; the default inbox is `takeBackInbox`'s).
 */
export const takeBackPastQuota = (db: Db, quota: ChatbotQuota, id: string) => {
  const countedNow = db.select({ n: count() }).from(chatbots).where(countedChatbotsCondition(quota.organizationId));
  return db
    .delete(chatbots)
    .where(and(eq(chatbots.id, id), sql`(${countedNow}) > ${quota.limit}`))
    .returning({ id: chatbots.id });
};

/** After `takeBackPastQuota`: the default inbox `inboxId`, when its assistant was taken back. */
export const takeBackInbox = (db: Db, inboxId: string, chatbotId: string) =>
  db
    .delete(inboxes)
    .where(
      and(eq(inboxes.id, inboxId), sql`not exists (select 1 from ${chatbots} where ${chatbots.id} = ${chatbotId})`),
    );

/** The 403 of an assistant taken back by `takeBackPastQuota`, with the organization's assistants as they are now. */
export async function pastQuota(db: Db, quota: ChatbotQuota) {
  return limitReached(quota, await countedChatbots(db, quota.organizationId));
}
