import { and, eq, gt, inArray, lt, lte, or } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { dataDbs } from "../shards";
import { webhookDeliveries, webhooks } from "../../db/schema";
import { inChunks } from "../../lib/sql";
import { completeAttempts, type FinishedAttempt } from "./completion";
import type { DeliveryRow } from "./config";
import { scheduleDeliveries } from "./emit";
import { conversationEventData } from "./conversation-event-data";
import type { DeliveryData } from "./conversation-payloads";
import { eventData } from "./event-data";
import { send } from "./send";
import { logError } from "../../lib/log";

const LEASE_MS = 60_000;

/**
 * Sends attempts, each at most once per claim: the records are claimed first (pending and due ->
 * sending, with a lease so a crashed consumer's claim expires), then completed with what each
 * receiver answered (completeAttempts, which also schedules the next attempt of a webhook that
 * retries). A redelivered queue message finds its record claimed or finished and is skipped; one
 * woken before its attempt is due is queued again for then. Without `retryFailedDeliveries`, a
 * failure stays a failure (spec delivery rule 3). `now` is the clock (tests play hours in seconds).
 * A batch costs four D1 round trips however large it is (claim, webhooks, conversations, completion), and a call
 * to the object of each conversation whose messages it sends (their payloads: event-data.ts).
 * The attempts and what they carry are read and written on `data` (the data plane of their organizations), their
 * webhooks and the names payloads show on `db` (the control plane).
 * Resolves to the ids that were sent (claimed), in any order.
 */
export async function deliverAll(
  env: Bindings,
  db: Db,
  data: Db,
  deliveryIds: string[],
  now = Date.now(),
): Promise<Set<string>> {
  const ids = [...new Set(deliveryIds)];
  const claimable = or(
    and(eq(webhookDeliveries.status, "pending"), lte(webhookDeliveries.scheduledAt, now)),
    and(eq(webhookDeliveries.status, "sending"), lt(webhookDeliveries.leaseUntil, now)),
  );
  const claimed = await inChunks(ids, (part) =>
    data
      .update(webhookDeliveries)
      .set({ status: "sending", leaseUntil: now + LEASE_MS })
      .where(and(inArray(webhookDeliveries.id, part), claimable))
      .returning(),
  );
  if (claimed.length < ids.length) await wakeWhenDue(env, data, ids, claimed, now);
  if (!claimed.length) return new Set();
  try {
    await sendClaimed(env, db, data, claimed, now);
  } catch (err) {
    // Give the claims back, so that retrying the messages (and at last the dead-letter queue) finds them: those still
    // ours only, as a claim another consumer took once our lease lapsed is its to complete (completion.ts, `held`).
    await inChunks(
      claimed.map((d) => d.id),
      (part) =>
        data
          .update(webhookDeliveries)
          .set({ status: "pending", leaseUntil: null })
          .where(
            and(
              inArray(webhookDeliveries.id, part),
              eq(webhookDeliveries.status, "sending"),
              eq(webhookDeliveries.leaseUntil, now + LEASE_MS),
            ),
          )
          .returning({ id: webhookDeliveries.id }),
    ).catch((notGiven) =>
      // Claims not given back are claimable again once their lease ends (`claimable`).
      logError("webhook claims not given back; claimable when their lease ends", { error: String(notGiven) }),
    );
    throw err;
  }
  return new Set(claimed.map((d) => d.id));
}

async function sendClaimed(env: Bindings, db: Db, data: Db, claimed: DeliveryRow[], now: number) {
  const ids = (key: "messageId" | "conversationEventId") => [
    ...new Set(claimed.flatMap((d) => (d[key] ? [d[key]] : []))),
  ];
  const [hooks, messageEvents, lifecycleEvents] = await Promise.all([
    inChunks([...new Set(claimed.map((d) => d.webhookId))], (part) =>
      db.select().from(webhooks).where(inArray(webhooks.id, part)),
    ),
    eventData(
      env,
      db,
      data,
      claimed.filter((d) => d.messageId),
    ),
    conversationEventData(db, data, ids("conversationEventId")),
  ]);
  const hookById = new Map(hooks.map((h) => [h.id, h]));
  const started = Date.now();
  const finished = await Promise.all(
    claimed.map(async (delivery): Promise<FinishedAttempt> => {
      const webhook = hookById.get(delivery.webhookId);
      // A delivery carries a message or a lifecycle event (conversation-events.ts).
      const eventId = delivery.messageId ?? delivery.conversationEventId;
      const data: DeliveryData | undefined = delivery.messageId
        ? messageEvents.get(delivery.messageId)
        : delivery.conversationEventId
          ? lifecycleEvents.get(delivery.conversationEventId)
          : undefined;
      const skipped = (error: string): FinishedAttempt => ({ delivery, webhook, outcome: { error }, attempted: false });
      if (!webhook) return skipped("The webhook was deleted.");
      // Delivery rule 1: a webhook disabled after the message was recorded sends nothing.
      if (!webhook.isEnabled) return skipped("The webhook was disabled before delivery.");
      if (!eventId || !data)
        return skipped(
          delivery.messageId ? "The message no longer exists." : "The conversation event no longer exists.",
        );
      return { delivery, webhook, outcome: await send(env, eventId, webhook, data), attempted: true };
    }),
  );
  // The clock moved on by the time the receivers answered.
  await completeAttempts(env, db, data, finished, now + (Date.now() - started));
}

/** One delivery (`deliverAll` for a single id). */
export async function deliver(
  env: Bindings,
  db: Db,
  data: Db,
  deliveryId: string,
  now = Date.now(),
): Promise<"sent" | "skipped"> {
  return (await deliverAll(env, db, data, [deliveryId], now)).size ? "sent" : "skipped";
}

/** Of the ids not claimed, the attempts still pending but not yet due go back to the queue for their time. */
async function wakeWhenDue(env: Bindings, data: Db, ids: string[], claimed: { id: string }[], now: number) {
  const taken = new Set(claimed.map((d) => d.id));
  const early = await inChunks(
    ids.filter((id) => !taken.has(id)),
    (part) =>
      data
        .select({
          id: webhookDeliveries.id,
          organizationId: webhookDeliveries.organizationId,
          scheduledAt: webhookDeliveries.scheduledAt,
        })
        .from(webhookDeliveries)
        .where(
          and(
            inArray(webhookDeliveries.id, part),
            eq(webhookDeliveries.status, "pending"),
            gt(webhookDeliveries.scheduledAt, now),
          ),
        ),
  );
  await scheduleDeliveries(env, early, now);
}

/**
 * Attempts the queue may never have heard of (a crash between commit and enqueue, a lost wake-up),
 * pending a minute past their time, or whose claim expired.
 */
export async function strandedDeliveries(
  data: Db,
  now = Date.now(),
  olderThanMs = 60_000,
): Promise<{ id: string; organizationId: string }[]> {
  return data
    .select({ id: webhookDeliveries.id, organizationId: webhookDeliveries.organizationId })
    .from(webhookDeliveries)
    .where(
      or(
        and(
          eq(webhookDeliveries.status, "pending"),
          lt(webhookDeliveries.scheduledAt, now - olderThanMs),
          lt(webhookDeliveries.createdAt, now - olderThanMs),
        ),
        and(eq(webhookDeliveries.status, "sending"), lt(webhookDeliveries.leaseUntil, now)),
      ),
    )
    .limit(1000);
}

/** Housekeeping: the stranded attempts of every data plane, queued again (each message names its organization). */
export async function requeueStrandedDeliveries(env: Bindings, now = Date.now()): Promise<void> {
  for (const data of dataDbs(env))
    await scheduleDeliveries(
      env,
      (await strandedDeliveries(data, now)).map((d) => ({ ...d, scheduledAt: 0 })),
      0,
    );
}
