import { and, inArray } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { webhookDeliveries, webhooks } from "../../db/schema";
import { inChunks } from "../../lib/sql";
import { completeAttempts } from "./completion";

export const DEAD_LETTERED =
  "The delivery queue could not process this attempt (dead-lettered); it was not confirmed sent.";

/**
 * Attempts whose queue messages ended in the dead-letter queue (the consumer failed on them every
 * time) and that are still unfinished become failures saying so, so the record shows them and
 * redeliver-failed finds them; a webhook that retries gets its next attempt on the schedule. Only
 * the columns needed are read, so a webhook row the consumer choked on cannot stop this too. The attempts are read
 * and written on `data` (the data plane), their webhooks on `db`.
 * Resolves to how many attempts were recorded.
 */
export async function recordDeadLetters(
  env: Bindings,
  db: Db,
  data: Db,
  deliveryIds: string[],
  now = Date.now(),
): Promise<number> {
  const claimed = await inChunks(deliveryIds, (part) =>
    data
      .update(webhookDeliveries)
      .set({ status: "sending", leaseUntil: now + 60_000 })
      .where(and(inArray(webhookDeliveries.id, part), inArray(webhookDeliveries.status, ["pending", "sending"])))
      .returning(),
  );
  const hooks = await inChunks([...new Set(claimed.map((d) => d.webhookId))], (part) =>
    db
      .select({
        id: webhooks.id,
        url: webhooks.url,
        isEnabled: webhooks.isEnabled,
        retryFailedDeliveries: webhooks.retryFailedDeliveries,
      })
      .from(webhooks)
      .where(inArray(webhooks.id, part)),
  );
  const byId = new Map(hooks.map((h) => [h.id, h]));
  await completeAttempts(
    env,
    db,
    data,
    claimed.map((delivery) => ({
      delivery,
      webhook: byId.get(delivery.webhookId),
      outcome: { error: DEAD_LETTERED, retryable: true },
      attempted: false,
    })),
    now,
  );
  return claimed.length;
}
