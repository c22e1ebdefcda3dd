/**
 * What a webhook sends for a conversation's lifecycle event (CONTRACT section 18): the data
 * (`ConversationEventData`) and the standard body built from it. Message events keep their own
 * payloads (payloads.ts); custom templates get both (templates.ts, `eventTemplateVariables`).
 */
import { standardConversationParts, type WebhookEventData } from "./payloads";
import type { WebhookConversationEvent } from "../records/webhook-payloads";
import type { ChangeReason } from "../records/conversation-events";

export interface ConversationEventData extends Pick<WebhookEventData, "conversation" | "inbox" | "contact"> {
  kind: "conversation.updated";
  /** The event's id: the payload's `id` and the `webhook-id` header, the same on every attempt. */
  id: string;
  createdAt: number;
  /** Keyed as stored, by the live inbox stream's names (`progressStatus`); renamed on sending (`changedFields`). */
  changes: Record<string, [unknown, unknown]>;
  reason: ChangeReason;
}

export type DeliveryData = WebhookEventData | ConversationEventData;

export const isConversationEvent = (data: DeliveryData): data is ConversationEventData =>
  "kind" in data && data.kind === "conversation.updated";

/**
 * `changes` keyed as the payload names the conversation's fields (`progress_status`, `auto_reply_enabled`), values
 * as they are. The rows keep the API's names, events stored before this naming included, so it is done on sending.
 */
export const changedFields = (changes: ConversationEventData["changes"]): ConversationEventData["changes"] =>
  Object.fromEntries(
    Object.entries(changes).map(([field, change]) => [field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), change]),
  );

/**
 * The standard payload of a lifecycle event: `id` (the event's), `event`, `created_at` (ISO 8601), `reason`,
 * `changes` ({field: [before, after]}) and the `conversation`, `inbox` and `contact` of the message payloads, built by
 * the same code: one casing, snake_case, throughout. Every preset but `custom` sends it (docs/reference.md,
 * "Lifecycle events").
 */
export function conversationEventPayload(data: ConversationEventData): WebhookConversationEvent {
  return {
    id: data.id,
    event: data.kind,
    created_at: new Date(data.createdAt).toISOString(),
    reason: data.reason,
    changes: changedFields(data.changes),
    ...standardConversationParts(data),
  };
}
