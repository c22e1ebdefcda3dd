import { ms } from "../../lib/time";
import type { DeliveryRow, DeliveryView } from "../webhooks/config";

type IdName = { id: string; name: string };

/** Response bodies are kept short; the consumer already stores at most this much. */
const RESPONSE_BODY_SHOWN = 4_096;

/**
 * A webhook delivery record: one attempt of one event. `url`, `requestBody`, `response`,
 * `statusCode`, `createdAt`, `chatbot`, `attempt` and `eventId` are the product's names (CONTRACT
 * section 8); `responseStatus` and `responseBody` are the older names of the same values, kept for
 * existing clients.
 */
export interface WebhookDeliveryRecord {
  id: string;
  webhook: IdName;
  chatbot: IdName | null;
  message: string | null;
  event: DeliveryRow["event"];
  status: DeliveryRow["status"];
  attempt: number;
  eventId: string;
  scheduledAt: string;
  attempts: number;
  url: string | null;
  requestBody: string | null;
  response: string | null;
  statusCode: number | null;
  responseStatus: number | null;
  responseBody: string | null;
  durationMs: number | null;
  error: string | null;
  createdAt: string;
  deliveredAt: string | null;
}

/** The id the payload carries: the message's, or the lifecycle event's (every delivery has one of them). */
export function deliveryEventId(d: Pick<DeliveryRow, "id" | "messageId" | "conversationEventId">): string {
  const id = d.messageId ?? d.conversationEventId;
  if (!id) throw new Error(`webhook delivery ${d.id} names neither a message nor a conversation event`);
  return id;
}

export function deliveryRecord({ delivery: d, webhook, chatbot }: DeliveryView): WebhookDeliveryRecord {
  const response = d.responseBody === null ? null : d.responseBody.slice(0, RESPONSE_BODY_SHOWN);
  return {
    id: d.id,
    webhook,
    chatbot: chatbot?.id ? chatbot : null,
    message: d.messageId,
    event: d.event,
    status: d.status,
    attempt: d.attempt,
    eventId: deliveryEventId(d),
    scheduledAt: ms(d.scheduledAt)!,
    attempts: d.attempts,
    url: d.url,
    requestBody: d.requestBody,
    response,
    statusCode: d.responseStatus,
    responseStatus: d.responseStatus,
    responseBody: response,
    durationMs: d.durationMs,
    error: d.error,
    createdAt: ms(d.createdAt)!,
    deliveredAt: ms(d.deliveredAt),
  };
}
