import { and, eq, getTableColumns, isNotNull, isNull, lte, type SQL, sql } from "drizzle-orm";
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
import { purgeWrite, type Purge } from "../purges";

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
 * schedule), and the purge of each webhook found gone (`goneWebhooks`). Health goes first so that an attempt
 * recorded as failed always has its webhook's health beside it: a consumer stopped between the two batches leaves the
 * attempt leased, and it is made and recorded again (health's writes hold for any number of completions). A health
 * batch that fails is logged, and the next completion writes it. Then the queue is told when the new attempts are due.
 * An attempt is written, and its next one added, only while its lease is still the one this consumer took (`held`):
 * a consumer slower than its lease finds the attempt claimed again by another, whose result stands. The slow one's
 * push did happen, so it still counts for the webhook's health, but it writes no result over the other's and adds
 * no attempt of its own (the event would be retried after it was delivered).
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
  const recorded: { id: string; write: number }[] = [];
  const added: number[] = [];
  for (const { delivery, webhook, outcome } of finished) {
    const dueAt =
      outcome.retryable && webhook?.retryFailedDeliveries && webhook.isEnabled
        ? nextAttemptAt(policy, delivery.attempt, now)
        : null;
    // Before the attempt's own write, which ends the lease the insert checks (one batch: one transaction).
    if (dueAt !== null) added.push(writes.push(nextAttempt(data, delivery, webhook!.url, dueAt, now)) - 1);
    recorded.push({
      id: delivery.id,
      write:
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
            .where(held(delivery))
            .returning({ id: webhookDeliveries.id }),
        ) - 1,
    });
  }
  const gone = goneWebhooks(finished);
  if (gone.length) writes.push(purgeWrite(data, gone, now));
  await writeHealth(db, finished, now, policy.disableAfterMs);
  const results = (await data.batch(writes as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]])) as unknown[][];
  for (const { id, write } of recorded)
    if (!results[write].length)
      logWarn("webhook attempt ended after its lease was taken over; the later claim's result stands", {
        deliveryId: id,
      });
  await scheduleDeliveries(
    env,
    added.flatMap((i) => results[i] as { id: string; organizationId: string; scheduledAt: number }[]),
    now,
  );
}

/**
 * The purges of the webhooks the attempts found gone (no row when their sender read them), for this part: an attempt
 * written by a message that read its webhook before the delete, stored after the housekeeping ran the delete's second
 * purge, would stay for good (docs/decisions.md, "Every control delete writes its purge twice"). Every attempt comes
 * here, and the webhooks were read already to send them: no read of its own.
 */
function goneWebhooks(finished: FinishedAttempt[]): Purge[] {
  const gone = new Map<string, Purge>();
  for (const { delivery, webhook } of finished)
    if (!webhook)
      gone.set(delivery.webhookId, {
        organizationId: delivery.organizationId,
        kind: "webhook",
        id: delivery.webhookId,
      });
  return [...gone.values()];
}

/** The attempt is still claimed with the lease `delivery` was claimed with (each claim sets a later one). */
const held = (delivery: DeliveryRow) =>
  and(
    eq(webhookDeliveries.id, delivery.id),
    eq(webhookDeliveries.status, "sending"),
    delivery.leaseUntil === null
      ? isNull(webhookDeliveries.leaseUntil)
      : eq(webhookDeliveries.leaseUntil, delivery.leaseUntil),
  );

/**
 * The next attempt of `delivery`'s event, due at `dueAt`, copied from the attempt's row while it is `held`: an
 * INSERT ... SELECT, so a consumer whose lease was taken over adds none. Resolves to the row added, if any.
 */
function nextAttempt(data: Db, delivery: DeliveryRow, url: string, dueAt: number, now: number) {
  const columns = getTableColumns(webhookDeliveries);
  const fresh: Partial<Record<keyof typeof columns, SQL>> = {
    id: sql`${uuidv7(now)}`,
    status: sql`'pending'`,
    attempt: sql`${columns.attempt} + 1`,
    scheduledAt: sql`${dueAt}`,
    attempts: sql`0`,
    url: sql`${url}`,
    createdAt: sql`${now}`,
  };
  // The event's columns are copied, those of how an attempt went start empty; in the table's order (insert-select).
  const event = new Set<string>([
    "organizationId",
    "webhookId",
    "inboxId",
    "chatbotId",
    "messageId",
    "conversationEventId",
    "conversationId",
    "event",
  ]);
  const fields = Object.fromEntries(
    Object.entries(columns).map(([key, column]) => [
      key,
      fresh[key as keyof typeof columns] ?? (event.has(key) ? column : sql`null`),
    ]),
  ) as typeof columns;
  return (
    data
      .insert(webhookDeliveries)
      .select(data.select(fields).from(webhookDeliveries).where(held(delivery)))
      // A redelivery by hand may have taken this attempt number first; the event is on its way then.
      .onConflictDoNothing()
      .returning({
        id: webhookDeliveries.id,
        organizationId: webhookDeliveries.organizationId,
        scheduledAt: webhookDeliveries.scheduledAt,
      })
  );
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
