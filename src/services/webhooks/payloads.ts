/**
 * What a webhook sends for one message: the data (`WebhookEventData`, everything the presets and
 * custom templates may use) and the body each preset builds from it.
 */
import { conversationEventPayload, isConversationEvent, type DeliveryData } from "./conversation-payloads";
import { renderCustomTemplate, TemplateError } from "./templates";
import type { WebhookLegacyMessage, WebhookMessage } from "../records/webhook-payloads";

/** The contact as every event's data carries it: templates read its email and phone number from either kind. */
export interface WebhookContact {
  id: string;
  name: string;
  email: string | null;
  phoneNumber: string | null;
  sourceId: string | null;
}

export interface WebhookEventData {
  message: {
    id: string;
    type: "incoming" | "outgoing";
    content: string;
    createdAt: number;
    metadata: Record<string, unknown>;
    /** Stored as text; the older payload format sends it as an object (see `legacyFeedback`). */
    feedback: string | Record<string, unknown> | null;
    citations: Record<string, unknown>[];
  };
  conversation: {
    id: string;
    title: string;
    type: "individual" | "group";
    status: WebhookMessage["conversation"]["status"];
    progressStatus: WebhookMessage["conversation"]["progress_status"];
    autoReplyEnabled: boolean;
    assignee: { id: string; name: string } | null;
  };
  inbox: { id: string; name: string; channelType: string };
  contact: WebhookContact | null;
  sender: { id: string | null; name: string; avatar: string | null; type: "chatbot" | "user" | "contact" };
  attachments: { id: string | null; type: string; filename: string; sourceUrl: string; fileUrl: string }[];
}

export type WebhookPreset = "service_standard" | "genesys_cloud" | "custom" | "legacy";

/** The spec's "Standard payload" (snake_case, ISO 8601 `created_at`). */
export function standardPayload(data: WebhookEventData): WebhookMessage {
  const { message: m, sender } = data;
  return {
    id: m.id,
    type: m.type,
    content: m.content,
    created_at: new Date(m.createdAt).toISOString(),
    ...standardConversationParts(data),
    sender: { id: sender.id, name: sender.name, type: sender.type },
    attachments: data.attachments.map((a) => ({
      id: a.id,
      type: a.type,
      filename: a.filename,
      source_url: a.sourceUrl,
    })),
    metadata: m.metadata,
  };
}

/**
 * The standard payload's `conversation`, `inbox` and `contact`: every event that sends the standard payload, a
 * message or a lifecycle event (conversation-payloads.ts), shows them the one way.
 */
export function standardConversationParts({
  conversation: c,
  inbox,
  contact,
}: Pick<WebhookEventData, "conversation" | "inbox" | "contact">): Pick<
  WebhookMessage,
  "conversation" | "inbox" | "contact"
> {
  return {
    conversation: {
      ...conversationFields(c),
      assignee: c.assignee ? { id: c.assignee.id, name: c.assignee.name } : null,
    },
    inbox: { id: inbox.id, name: inbox.name, channel_type: inbox.channelType },
    contact: contact
      ? { id: contact.id, name: contact.name, email: contact.email, phone_number: contact.phoneNumber }
      : null,
  };
}

/** The conversation's fields as the standard payload and custom templates name them (assignee aside). */
export function conversationFields(c: WebhookEventData["conversation"]) {
  return {
    id: c.id,
    title: c.title,
    type: c.type,
    status: c.status,
    progress_status: c.progressStatus,
    auto_reply_enabled: c.autoReplyEnabled,
  };
}

/**
 * The older payload format (deprecated by the spec, kept for existing receivers): `created_at` in
 * milliseconds as a string, attachments as the message record shows them ({id, type, filename, file}),
 * citations as stored ({id, filename, file, fileType, size, status, document, createdAt}).
 */
export function legacyPayload(data: WebhookEventData): WebhookLegacyMessage {
  const { message: m, sender } = data;
  return {
    id: m.id,
    conversation: data.conversation.id,
    sender: { id: sender.id, name: sender.name, avatar: sender.avatar },
    type: m.type,
    content: m.content,
    feedback: legacyFeedback(m.feedback),
    created_at: String(m.createdAt),
    attachments: data.attachments.map((a) => ({ id: a.id, type: a.type, filename: a.filename, file: a.fileUrl })),
    citations: m.citations,
  };
}

/** The spec says "null or object"; the column is text: a JSON object is sent as is, other text as {value}. */
function legacyFeedback(feedback: WebhookEventData["message"]["feedback"]): Record<string, unknown> | null {
  if (feedback === null || feedback === "") return null;
  if (typeof feedback === "object") return feedback;
  try {
    const parsed: unknown = JSON.parse(feedback);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // plain text such as "like"
  }
  return { value: feedback };
}

const GENESYS_MEDIA: Record<string, string> = { image: "Image", video: "Video", audio: "Audio" };

/**
 * Genesys Cloud Open Messaging, the body of an inbound message
 * (`POST /api/v2/conversations/messages/{integrationId}/inbound/open/message`). Assumptions, as the
 * spec names the preset without its shape: the conversation's contact is the Open Messaging user
 * (`from.id` its channel source id, else its id, else "anonymous"; first and last name split at the
 * first space); the inbox is the integration (`to.id`); visitor messages are "Inbound", replies
 * "Outbound"; attachments, when any, go in `content` as Genesys attachment items.
 */
export function genesysPayload(data: WebhookEventData) {
  const { message: m, contact } = data;
  const nickname = contact?.name || (m.type === "incoming" ? data.sender.name : "") || "Visitor";
  const [firstName, ...rest] = (contact?.name ?? "").trim().split(/\s+/);
  const time = new Date(m.createdAt).toISOString();
  return {
    id: m.id,
    channel: {
      platform: "Open",
      type: "Private",
      messageId: m.id,
      to: { id: data.inbox.id },
      from: {
        nickname,
        id: contact?.sourceId || contact?.id || "anonymous",
        idType: "Opaque",
        ...(firstName ? { firstName } : {}),
        ...(rest.length ? { lastName: rest.join(" ") } : {}),
      },
      time,
    },
    type: "Text",
    text: m.content,
    ...(data.attachments.length
      ? {
          content: data.attachments.map((a) => ({
            contentType: "Attachment",
            attachment: {
              mediaType: GENESYS_MEDIA[a.type] ?? "File",
              url: a.fileUrl || a.sourceUrl,
              filename: a.filename,
            },
          })),
        }
      : {}),
    direction: m.type === "incoming" ? "Inbound" : "Outbound",
  };
}

/**
 * The JSON text a webhook sends. `custom` renders the configuration's Jinja2 template (its output
 * must be JSON: throws a TemplateError otherwise); an unknown preset falls back to the standard one.
 * A lifecycle event has no message for the other presets to carry: they send its standard payload.
 */
export function buildPayload(
  preset: WebhookPreset | string,
  data: DeliveryData,
  customTemplate?: string | null,
): string {
  if (isConversationEvent(data)) {
    if (preset !== "custom") return JSON.stringify(conversationEventPayload(data));
    if (!customTemplate) throw new TemplateError("The custom template is empty.");
    return renderCustomTemplate(customTemplate, data);
  }
  switch (preset) {
    case "custom":
      if (!customTemplate) throw new TemplateError("The custom template is empty.");
      return renderCustomTemplate(customTemplate, data);
    case "genesys_cloud":
      return JSON.stringify(genesysPayload(data));
    case "legacy":
      return JSON.stringify(legacyPayload(data));
    default:
      return JSON.stringify(standardPayload(data));
  }
}
