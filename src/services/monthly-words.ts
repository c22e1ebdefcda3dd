// A plan's monthly words (PLANS `monthlyWords`; docs/decisions.md, "Plans"): once an organization's conversations
// have used them this month, its assistants stop answering until the next month (UTC) or another plan. The
// visitors' messages are still taken: only the assistant's reply is refused.
import { and, eq } from "drizzle-orm";
import type { Bindings, Db } from "../env";
import { organizationUsage } from "../db/schema";
import { tableCache } from "../db/write-watch";
import { forbidden } from "../lib/errors";
import type { TurnError } from "./conversation/turn-result";
import { currentMonth } from "./organizations";
import { configuredPlanOf } from "./plans";
import { dataParts } from "./shards/parts";
import { onEachPart } from "./shards/parts-sum";

/**
 * The organization's words of the month, per isolate for 10 s, as its plan (`configuredPlanOf`): a write to the table
 * in this isolate forgets them at once, other isolates read again within 10 s (so a busy month may go past its words
 * by about that much; the words themselves are counted as replies are stored).
 */
const wordsOfMonth = tableCache<number>([organizationUsage], 10_000);

const formatted = (n: number) => n.toLocaleString("en-US");

/** The month after `month` ("2026-12" -> "2027-01"). */
function nextMonth(month: string): string {
  const [year, m] = month.split("-").map(Number);
  return m === 12 ? `${year + 1}-01` : `${year}-${String(m + 1).padStart(2, "0")}`;
}

/**
 * Why the organization's assistants may not answer now: its plan's words of this month are used (403
 * `permission_denied`, the contract's "the plan lacks the feature"); undefined while they may, and always without
 * configured plans or a plan without `monthlyWords` (nothing read then). As a turn's `refusal`: the visitor's message
 * is stored, the assistant does not answer, and the turn ends with this error.
 */
export async function monthlyWordsRefusal(
  env: Bindings,
  db: Db,
  organizationId: string,
  now = Date.now(),
): Promise<TurnError | undefined> {
  const plan = await configuredPlanOf(env, db, organizationId);
  if (!plan || plan.monthlyWords === null) return undefined;
  const month = currentMonth(now);
  const used = await wordsOfMonth.remember(`${organizationId}:${month}`, async () => {
    const rows = await onEachPart(await dataParts(env, organizationId), (data) =>
      data
        .select({ words: organizationUsage.wordsCount })
        .from(organizationUsage)
        .where(and(eq(organizationUsage.organizationId, organizationId), eq(organizationUsage.month, month))),
    );
    return rows.flat().reduce((n, r) => n + r.words, 0);
  });
  if (used < plan.monthlyWords) return undefined;
  const detail =
    `The ${plan.planName} plan's ${formatted(plan.monthlyWords)} words of ${month} are used ` +
    `(${formatted(used)}): the assistants answer again from ${nextMonth(month)}-01 (UTC), or on another plan.`;
  return { status: 403, code: "permission_denied", detail };
}

/**
 * Throws monthlyWordsRefusal's 403, if any: for a request whose point is the assistant's answer (a completion, which
 * then stores nothing; a desktop tool's last result, stored before this, whose reply would continue).
 */
export async function requireMonthlyWords(env: Bindings, db: Db, organizationId: string): Promise<void> {
  const refusal = await monthlyWordsRefusal(env, db, organizationId);
  if (refusal) throw forbidden(refusal.detail);
}
