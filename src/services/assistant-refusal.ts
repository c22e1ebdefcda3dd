// Why an organization's assistants may not answer now (docs/decisions.md, "Plans"): its plan has lapsed
// (`planExpiredAt`, set by staff), or its plan's monthly words are used (monthly-words.ts). One check for every request
// whose point is an answer, made where the request is taken: what a visitor sends is still taken, only the
// assistant's reply is refused, and people in the team still reply.
import type { Bindings, Db } from "../env";
import { forbidden } from "../lib/errors";
import type { TurnError } from "./conversation/turn-result";
import { monthlyWordsRefusal } from "./monthly-words";
import { type OrganizationPlan, organizationPlanOf, planLapsed } from "./plans";

const lapsedRefusal = ({ plan }: OrganizationPlan, expiredAt: number): TurnError => ({
  status: 403,
  code: "permission_denied",
  detail:
    `The organization's plan has expired (the ${plan.planName} plan, on ` +
    `${new Date(expiredAt).toISOString().slice(0, 10)} UTC): its assistants do not answer until the plan is renewed.`,
});

/**
 * Why the organization's assistants may not answer at `now` (the request's clock): its plan has lapsed, or its words
 * of this month are used (403 `permission_denied`, the contract's "the plan lacks the feature"); undefined while they
 * may, and always without configured plans (nothing read then). The plan and its expiry are one read remembered per
 * isolate (`organizationPlanOf`), the expiry compared with `now` at each check. As a turn's `refusal`: the visitor's
 * message is stored, the assistant does not answer, and the turn ends with this error.
 */
export async function assistantRefusal(
  env: Bindings,
  db: Db,
  organizationId: string,
  now = Date.now(),
): Promise<TurnError | undefined> {
  const current = await organizationPlanOf(env, db, organizationId);
  if (!current) return undefined;
  if (planLapsed(current.expiredAt, now)) return lapsedRefusal(current, current.expiredAt);
  return monthlyWordsRefusal(env, organizationId, current.plan, now);
}

/**
 * Throws assistantRefusal's 403, if any: for a request whose point is the assistant's answer (a completion, which then
 * stores nothing; a batch QA run; a desktop tool's last result, stored before this, whose reply would continue).
 */
export async function requireAssistantAnswers(
  env: Bindings,
  db: Db,
  organizationId: string,
  now = Date.now(),
): Promise<void> {
  const refusal = await assistantRefusal(env, db, organizationId, now);
  if (refusal) throw forbidden(refusal.detail);
}
