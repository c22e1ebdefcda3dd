import { sql } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { conflict, isUniqueViolation } from "../../lib/errors";
import { deliveryEventId } from "../records/webhook-deliveries";
import { type DeliveryRow, type DeliveryView, getDelivery, type WebhookRow } from "./config";
import { enqueueDeliveries, uuidv7At } from "./emit";
import { conversationDb } from "../shards/parts";

export interface RedeliveryScope {
  organizationId: string;
  webhookId: string;
  /** The webhook's URL now (new attempts go there). */
  url: string;
  /** One event, by the id its payload carries (a message's or a lifecycle event's; the single-record redeliver);
   * absent: every event of the webhook. */
  eventId?: string;
  /** Only events none of whose attempts succeeded (redeliver-failed). */
  onlyFailed: boolean;
  /** Only events first attempted at or after this time (epoch ms). */
  since?: number;
  /** The event's attempts moved to a segment (segments.ts), as one: its last attempt, which succeeded. */
  moved?: Pick<
    DeliveryRow,
    "inboxId" | "chatbotId" | "messageId" | "conversationEventId" | "conversationId" | "event" | "attempt" | "createdAt"
  >;
}

/**
 * A new attempt (the next number, pending, due now) for each event of the webhook in scope that has
 * no attempt pending or being sent, in one INSERT ... SELECT: earlier attempts stay as they were,
 * so the failures of an outage remain visible after the event gets through. The payload carries the
 * same event id as before (the message's or the lifecycle event's), so receivers drop what they already have. Returns
 * the new attempts' ids.
 */
export async function addAttempts(data: Db, scope: RedeliveryScope, now = Date.now()): Promise<string[]> {
  const m = scope.moved;
  const rows = await data.all<{ id: string }>(sql`
    insert into webhook_deliveries
      (id, organization_id, webhook_id, inbox_id, chatbot_id, message_id, conversation_event_id, conversation_id, event,
       status, attempt, scheduled_at, attempts, url, created_at)
    select ${uuidv7At(now)}, organization_id, webhook_id, inbox_id, max(chatbot_id), message_id, conversation_event_id,
      max(conversation_id), event, 'pending', max(attempt) + 1, ${now}, 0, ${scope.url}, ${now}
    from (
      select organization_id, webhook_id, inbox_id, chatbot_id, message_id, conversation_event_id,
        -- An attempt older than the column names its conversation in the payload it sent (segments.ts).
        coalesce(conversation_id, case when json_valid(request_body)
          then json_extract(request_body, '$.conversation.id') end) as conversation_id,
        event, status, attempt, created_at
      from webhook_deliveries
      where organization_id = ${scope.organizationId} and webhook_id = ${scope.webhookId}
        ${scope.eventId ? sql`and (message_id = ${scope.eventId} or conversation_event_id = ${scope.eventId})` : sql``}
      ${
        m
          ? sql`union all select ${scope.organizationId}, ${scope.webhookId}, ${m.inboxId}, ${m.chatbotId},
              ${m.messageId}, ${m.conversationEventId}, ${m.conversationId}, ${m.event}, 'success', ${m.attempt},
              ${m.createdAt}`
          : sql``
      }
    )
    group by message_id, conversation_event_id
    having sum(status in ('pending', 'sending')) = 0
      ${
        // An event whose first attempts moved to a segment (min(attempt) > 1 here) had a success: only those move.
        scope.onlyFailed ? sql`and sum(status = 'success') = 0 and min(attempt) = 1` : sql``
      }
      ${scope.since !== undefined ? sql`and min(created_at) >= ${scope.since}` : sql``}
    returning id`);
  return rows.map((r) => r.id);
}

/**
 * The single-record redeliver: the event's next attempt, pending, with its record; 409 while an
 * attempt of the event is still pending or being sent. `record` is the record named, in D1 or moved. The attempts
 * are on `data` (the organization's data plane); `db` names their webhook and assistant.
 */
export async function addEventAttempt(
  env: Pick<Bindings, "FILES">,
  db: Db,
  data: Db,
  organizationId: string,
  webhook: Pick<WebhookRow, "id" | "url">,
  record: DeliveryView,
): Promise<DeliveryView> {
  const attempt = async (named: DeliveryView) => {
    const { delivery: d, eventAttempts } = named;
    const scope: RedeliveryScope = {
      organizationId,
      webhookId: webhook.id,
      url: webhook.url,
      eventId: deliveryEventId(d),
      onlyFailed: false,
      moved: eventAttempts === undefined ? undefined : { ...d, attempt: eventAttempts },
    };
    const [id] = await addAttempts(data, scope).catch((err) => {
      // Two redeliveries of one event at once: the unique (message or event, webhook, attempt) lets one through.
      if (isUniqueViolation(err)) return [];
      throw err;
    });
    return id;
  };
  let id = await attempt(record);
  if (!id && record.eventAttempts === undefined) {
    // Its event may have moved to a segment since the record was read: then it is there.
    const again = await getDelivery(env, db, [data], organizationId, record.delivery.id, { webhookId: webhook.id });
    if (again.eventAttempts !== undefined) id = await attempt(again);
  }
  if (!id)
    throw conflict("An attempt of this event is still pending or being sent; only a finished event can be sent again.");
  return getDelivery(env, db, [data], organizationId, id, { webhookId: webhook.id });
}

/**
 * The single-record redeliver of a record read with its webhook (getWebhookDelivery): the event's next attempt,
 * queued at once; 409 while the webhook is disabled. The event's attempts are in its conversation's part (those of a
 * delivery from before conversations were named: `data`, the organization's own).
 */
export async function redeliverRecord(
  env: Bindings,
  db: Db,
  data: Db,
  organizationId: string,
  { webhook, record }: { webhook: WebhookRow; record: DeliveryView },
  requestId: string,
): Promise<DeliveryView> {
  if (!webhook.isEnabled) throw conflict("The webhook is disabled; enable it to send records again.");
  const { conversationId } = record.delivery;
  const part = conversationId ? await conversationDb(env, organizationId, conversationId) : data;
  const attempt = await addEventAttempt(env, db, part, organizationId, webhook, record);
  await queueAttempts(env, organizationId, [attempt.delivery.id], { requestId, message: "redelivery not queued" });
  return attempt;
}

/**
 * Every event of the webhook none of whose attempts succeeded (first attempted at or after `since`, when given) given
 * its next attempt, all queued at once; 409 while the webhook is disabled. An event's attempts are in its
 * conversation's part: each of `parts` gives its own events theirs. Returns how many events were given one.
 */
export async function redeliverFailed(
  env: Bindings,
  parts: Db[],
  organizationId: string,
  webhook: WebhookRow,
  since: number | undefined,
  requestId: string,
): Promise<number> {
  if (!webhook.isEnabled) throw conflict("The webhook is disabled; enable it to send its failed events again.");
  const scope = { organizationId, webhookId: webhook.id, url: webhook.url, onlyFailed: true, since };
  const ids: string[] = [];
  for (const part of parts) ids.push(...(await addAttempts(part, scope)));
  await queueAttempts(env, organizationId, ids, { requestId, message: "redeliveries not queued", count: ids.length });
  return ids.length;
}

/**
 * Queues new attempts of the organization's at once. When the queue refuses, the attempts stay pending and the
 * housekeeping cron queues stranded pending deliveries again: a warning, not a failure.
 */
export async function queueAttempts(
  env: Bindings,
  organizationId: string,
  ids: string[],
  log: { requestId: string; message: string; count?: number },
) {
  try {
    await enqueueDeliveries(env, ids, organizationId);
  } catch (err) {
    console.warn(JSON.stringify({ level: "warn", ...log, error: String(err) }));
  }
}
