// Assistants counted against an organization's plan.
import { and, count, eq, isNull, or, sql } from "drizzle-orm";
import type { Db } from "../../env";
import { chatbots, inboxes, organizations } from "../../db/schema";
import { forbidden } from "../../lib/errors";
import { planOf, type PlanSettings } from "../plans";

/** Assistants counted against an organization's plan: its own and the personal ones it hosts. */
export async function countedChatbots(db: Db, organizationId: string): Promise<number> {
  const [{ n }] = await db
    .select({ n: count() })
    .from(chatbots)
    .where(
      or(
        eq(chatbots.organizationId, organizationId),
        and(
          isNull(chatbots.organizationId),
          sql`${chatbots.id} in (select ${inboxes.chatbotId} from ${inboxes}
            where ${inboxes.organizationId} = ${organizationId} and ${inboxes.isDefault} = 1)`,
        ),
      ),
    );
  return n;
}

/**
 * The plan's assistant quota, when the operator configured one (403 when reached, or when the plan
 * has lapsed). Personal assistants count against the organization that hosts their default inbox.
 */
export async function requireChatbotQuota(db: Db, organizationId: string, plans: PlanSettings, now = Date.now()) {
  if (!plans.configured) return;
  const [[org], n] = await Promise.all([
    db
      .select({ planId: organizations.planId, expiredAt: organizations.planExpiredAt })
      .from(organizations)
      .where(eq(organizations.id, organizationId)),
    countedChatbots(db, organizationId),
  ]);
  const plan = planOf(plans, org.planId);
  if (org.expiredAt !== null && org.expiredAt <= now)
    throw forbidden("The organization's plan has expired; no assistant can be created.");
  if (plan.createChatbotLimit !== null && n >= plan.createChatbotLimit) {
    throw forbidden(
      `The ${plan.planName} plan allows ${plan.createChatbotLimit} assistants and the organization has ${n}; ` +
        `delete one or change the plan.`,
    );
  }
}
