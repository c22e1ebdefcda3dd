// A plan's monthly words (PLANS `monthlyWords`; docs/decisions.md, "Plans"): once an organization's conversations
// have used them this month, its assistants stop answering until the next month (UTC) or another plan. The
// visitors' messages are still taken: only the assistant's reply is refused. Checked as one of the reasons of
// `assistantRefusal` (src/services/assistant-refusal.ts), which every caller asks.
import { and, eq } from "drizzle-orm";
import type { Bindings } from "../env";
import { organizationUsage } from "../db/schema";
import { tableCache } from "../db/write-watch";
import type { TurnError } from "./conversation/turn-result";
import { currentMonth } from "./organizations";
import type { Plan } from "./plans";
import { dataParts } from "./shards/parts";
import { onEachPart } from "./shards/parts-sum";

/**
 * The organization's words of the month, per isolate for 10 s, as its plan (`organizationPlanOf`): a write to the table
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
 * The refusal of an organization on `plan` whose words of this month are used (403 `permission_denied`, the
 * contract's "the plan lacks the feature"); undefined while some are left, and always on a plan without
 * `monthlyWords` (nothing read then).
 */
export async function monthlyWordsRefusal(
  env: Bindings,
  organizationId: string,
  plan: Plan,
  now: number,
): Promise<TurnError | undefined> {
  if (plan.monthlyWords === null) return undefined;
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
