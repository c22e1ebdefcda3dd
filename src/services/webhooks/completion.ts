import { and, eq, isNotNull, isNull, lte, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Bindings, Db } from "../../env";
import { webhookDeliveries, webhooks } from "../../db/schema";
import { isD1Error } from "../../lib/errors";
import { uuidv7 } from "../../lib/ids";
import type { DeliveryRow, WebhookRow } from "./config";
import { scheduleDeliveries } from "./emit";
import { nextAttemptAt, retryPolicy } from "./retries";
import { succeeded, type Outcome } from "./send";
import { logWarn } from "../../lib/log";

/** One finished attempt: `attempted` is false when nothing went out (webhook gone or disabled, message gone). */
export interface FinishedAttempt {
  delivery: DeliveryRow;
  webhook: Pick<WebhookRow, "url" | "isEnabled" | "retryFailedDeliveries"> | undefined;
  outcome: Outcome;
  attempted: boolean;
}

/**
 * Records how attempts ended. First each webhook's health, in one batch on the control plane (`db`): a success
 * clears `failingSince`, a failure starts it, and a webhook with no success for the disable window is disabled with
 * why. Then, in one batch on the data plane (`data`), each attempt's own row (never overwritten later) and the next
 * attempt of each retryable failure of a webhook with `retryFailedDeliveries` (its own pending row, due on the
 * schedule). Health goes first so that an attempt recorded as failed always has its webhook's health beside it: a
 * consumer stopped between the two batches leaves the attempt leased, and it is made and recorded again (health's
 * writes hold for any number of completions). A health batch that fails is logged, and the next completion writes
 * it. Then the queue is told when the new attempts are due.
 */
export async function completeAttempts(
  env: Bindings,
  db: Db,
  data: Db,
  finished: FinishedAttempt[],
  now: number,
): Promise<void> {
  if (!finished.length) return;
  const policy = retryPolicy(env);
  const writes: BatchItem<"sqlite">[] = [];
  const next: { id: string; organizationId: string; scheduledAt: number }[] = [];
  for (const { delivery, webhook, outcome } of finished) {
    writes.push(
      data
        .update(webhookDeliveries)
        .set({
          status: succeeded(outcome) ? "success" : "failure",
          leaseUntil: null,
          attempts: delivery.attempts + 1,
          deliveredAt: now,
          url: webhook?.url ?? delivery.url,
          requestBody: outcome.requestBody ?? null,
          responseStatus: outcome.responseStatus ?? null,
          responseBody: outcome.responseBody ?? null,
          durationMs: outcome.durationMs ?? null,
          error: outcome.error ?? null,
        })
        .where(eq(webhookDeliveries.id, delivery.id)),
    );
    const dueAt =
      outcome.retryable && webhook?.retryFailedDeliveries && webhook.isEnabled
        ? nextAttemptAt(policy, delivery.attempt, now)
        : null;
    if (dueAt === null) continue;
    const id = uuidv7(now);
    next.push({ id, organizationId: delivery.organizationId, scheduledAt: dueAt });
    writes.push(
      data
        .insert(webhookDeliveries)
        .values({
          id,
          organizationId: delivery.organizationId,
          webhookId: delivery.webhookId,
          inboxId: delivery.inboxId,
          chatbotId: delivery.chatbotId,
          messageId: delivery.messageId,
          conversationEventId: delivery.conversationEventId,
          conversationId: delivery.conversationId,
          event: delivery.event,
          attempt: delivery.attempt + 1,
          scheduledAt: dueAt,
          url: webhook!.url,
          createdAt: now,
        })
        // A redelivery by hand may have taken this attempt number first; the event is on its way then.
        .onConflictDoNothing(),
    );
  }
  await writeHealth(db, finished, now, policy.disableAfterMs);
  await data.batch(writes as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  await scheduleDeliveries(env, next, now);
}

/** The webhooks' health after `finished` (healthWrites), logging the webhooks it disabled; a failure only logged. */
async function writeHealth(db: Db, finished: FinishedAttempt[], now: number, disableAfterMs: number) {
  const health = healthWrites(db, finished, now, disableAfterMs);
  const statements = [...health.writes, ...health.disables];
  if (!statements.length) return;
  let results: unknown[];
  try {
    results = await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  } catch (err) {
    if (!isD1Error(err)) throw err;
    logWarn("webhook health not written; the next completion writes it", { error: String(err) });
    return;
  }
  // The operator's notice: a log line per webhook disabled (its record shows why).
  for (const rows of results.slice(health.writes.length) as { id: string; reason: string | null }[][]) {
    for (const row of rows) logWarn("webhook disabled after failing", { webhookId: row.id, reason: row.reason });
  }
}

/**
 * Per webhook that was tried: any success clears the failure run; otherwise the run starts (if it
 * had not) and, once it is older than the window, the webhook is disabled (`disables`, which RETURN
 * the webhooks they disabled).
 */
function healthWrites(db: Db, finished: FinishedAttempt[], now: number, disableAfterMs: number) {
  const byWebhook = new Map<string, { ok: boolean; lastError: string }>();
  for (const { delivery, outcome, attempted } of finished) {
    if (!attempted) continue;
    const seen = byWebhook.get(delivery.webhookId) ?? { ok: false, lastError: "" };
    byWebhook.set(delivery.webhookId, {
      ok: seen.ok || succeeded(outcome),
      lastError: outcome.error ?? seen.lastError,
    });
  }
  const writes: BatchItem<"sqlite">[] = [];
  const disables: BatchItem<"sqlite">[] = [];
  for (const [id, h] of byWebhook) {
    if (h.ok) {
      writes.push(
        db
          .update(webhooks)
          .set({ failingSince: null })
          .where(and(eq(webhooks.id, id), isNotNull(webhooks.failingSince))),
      );
      continue;
    }
    writes.push(
      db
        .update(webhooks)
        .set({ failingSince: now })
        .where(and(eq(webhooks.id, id), isNull(webhooks.failingSince))),
    );
    const since = sql`strftime('%Y-%m-%dT%H:%M:%SZ', ${webhooks.failingSince} / 1000, 'unixepoch')`;
    const reason = sql`'Every delivery failed from ' || ${since}
      || ' on, for more than ' || ${windowText(disableAfterMs)} || '; the last: ' || ${h.lastError}`;
    disables.push(
      db
        .update(webhooks)
        .set({ isEnabled: false, disabledAt: now, disabledReason: reason, updatedAt: now })
        .where(and(eq(webhooks.id, id), eq(webhooks.isEnabled, true), lte(webhooks.failingSince, now - disableAfterMs)))
        .returning({ id: webhooks.id, reason: webhooks.disabledReason }),
    );
  }
  return { writes, disables };
}

/** "3 days", or minutes when a chaos run speeds the clock up. */
const windowText = (ms: number) =>
  ms >= 86_400_000 ? `${Math.round(ms / 86_400_000)} days` : `${Math.round(ms / 60_000)} minutes`;
