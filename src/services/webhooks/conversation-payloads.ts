/**
 * What a webhook sends for a conversation's lifecycle event (CONTRACT section 18): the data
 * (`ConversationEventData`) and the standard body built from it. Message events keep their own
 * payloads (payloads.ts); custom templates get both (templates.ts, `eventTemplateVariables`).
 */
import type { ConversationRecord } from "../records/conversations";
import type { WebhookContact, WebhookEventData } from "./payloads";

export interface ConversationEventData {
  kind: "conversation.updated";
  /** The event's id: the payload's `id` and the `webhook-id` header, the same on every attempt. */
  id: string;
  createdAt: number;
  changes: Record<string, [unknown, unknown]>;
  reason: string;
  /** The conversation as the API's Conversation record shows it when the event is sent. */
  conversation: ConversationRecord;
  /** For templates, which know a contact's email and phone number from message events too. */
  contact: WebhookContact | null;
}

export type DeliveryData = WebhookEventData | ConversationEventData;

export const isConversationEvent = (data: DeliveryData): data is ConversationEventData =>
  "kind" in data && data.kind === "conversation.updated";

/**
 * The standard payload of a lifecycle event: `event`, the event's `id`, `created_at` (ISO 8601),
 * `reason`, `changes` ({field: [before, after]}), the conversation record and the inbox as message
 * payloads name it. Every preset but `custom` sends it (docs/reference.md, "Lifecycle events").
 */
export function conversationEventPayload(data: ConversationEventData) {
  const { conversation: c } = data;
  return {
    id: data.id,
    event: data.kind,
    created_at: new Date(data.createdAt).toISOString(),
    reason: data.reason,
    changes: data.changes,
    conversation: c,
    inbox: { id: c.inbox.id, name: c.inbox.name, channel_type: c.inbox.channelType },
  };
}
