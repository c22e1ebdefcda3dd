import { sql } from "drizzle-orm";
import type { Db } from "../../env";
import { uuidv7At } from "./emit";

export interface RedeliveryScope {
  organizationId: string;
  webhookId: string;
  /** The webhook's URL now (new attempts go there). */
  url: string;
  /** One event, by the id its payload carries (a message's or a lifecycle event's; the single-record redeliver); absent: every event of the webhook. */
  eventId?: string;
  /** Only events none of whose attempts succeeded (redeliver-failed). */
  onlyFailed: boolean;
  /** Only events first attempted at or after this time (epoch ms). */
  since?: number;
}

/**
 * A new attempt (the next number, pending, due now) for each event of the webhook in scope that has
 * no attempt pending or being sent, in one INSERT ... SELECT: earlier attempts stay as they were,
 * so the failures of an outage remain visible after the event gets through. The payload carries the
 * same event id as before (the message's or the lifecycle event's), so receivers drop what they already have. Returns the new attempts' ids.
 */
export async function addAttempts(db: Db, scope: RedeliveryScope, now = Date.now()): Promise<string[]> {
  const rows = await db.all<{ id: string }>(sql`
    insert into webhook_deliveries
      (id, organization_id, webhook_id, inbox_id, chatbot_id, message_id, conversation_event_id, event, status, attempt, scheduled_at, attempts, url, created_at)
    select ${uuidv7At(now)}, organization_id, webhook_id, inbox_id, max(chatbot_id), message_id, conversation_event_id, event, 'pending', max(attempt) + 1, ${now}, 0, ${scope.url}, ${now}
    from webhook_deliveries
    where organization_id = ${scope.organizationId} and webhook_id = ${scope.webhookId}
      ${scope.eventId ? sql`and (message_id = ${scope.eventId} or conversation_event_id = ${scope.eventId})` : sql``}
    group by message_id, conversation_event_id
    having sum(status in ('pending', 'sending')) = 0
      ${scope.onlyFailed ? sql`and sum(status = 'success') = 0` : sql``}
      ${scope.since !== undefined ? sql`and min(created_at) >= ${scope.since}` : sql``}
    returning id`);
  return rows.map((r) => r.id);
}
