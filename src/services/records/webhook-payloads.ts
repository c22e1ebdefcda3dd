// What an outgoing webhook sends, as named schemas of the OpenAPI document (its `webhooks`): the standard message
// payload, the older one, and a conversation's lifecycle event. services/webhooks builds each body typed by these,
// and a receiver can generate its types from the document as the console does.
import { z } from "@hono/zod-openapi";
import { ConversationSchema } from "./conversations";
import { ChangeReasonSchema } from "./conversation-events";

const ID = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d";
const string = (description: string, example: string) => z.string().openapi({ description, example });
const nullable = (description: string, example: string | null) =>
  z.string().nullable().openapi({ description, example });

/** The conversation, inbox and contact of every standard body, a message's or a lifecycle event's. */
const StandardConversationParts = {
  conversation: z
    .object({
      id: string("The conversation's id", ID),
      title: string("Its title", "Opening hours"),
      type: ConversationSchema.shape.type,
      status: ConversationSchema.shape.status,
      progress_status: ConversationSchema.shape.progressStatus,
      auto_reply_enabled: ConversationSchema.shape.autoReplyEnabled,
      assignee: z
        .object({ id: string("The member's user id", ID), name: string("Their name", "Sam Lee") })
        .nullable()
        .openapi({ description: "The member serving it or asked to; null: none" }),
    })
    .openapi({ description: "The conversation as it is when the body is built" }),
  inbox: z
    .object({
      id: string("The inbox's id", ID),
      name: string("Its name", "Website"),
      channel_type: string("Its platform (web, api, telegram, line, ...)", "web"),
    })
    .openapi({ description: "The inbox of the conversation (the webhook's)" }),
  contact: z
    .object({
      id: string("The contact's id", ID),
      name: string("Their name", "Ada"),
      email: nullable("Their e-mail address", "ada@example.com"),
      phone_number: nullable("Their phone number", null),
    })
    .nullable()
    .openapi({ description: "The visitor; null for a conversation without one (the API's)" }),
};

const createdAt = string("When it happened, ISO 8601", "2026-01-31T08:00:00.000Z");
const messageType = z
  .enum(["incoming", "outgoing"])
  .openapi({ description: "incoming: the visitor's; outgoing: a reply", example: "outgoing" });
const fileUrl = string("Where the file can be read", "https://files.example.com/receipt.png");
/** The files sent with a message; the two bodies name the file's address differently (`url`). */
const attachments = <U extends z.ZodRawShape>(url: U) =>
  z
    .array(
      z.object({
        id: nullable("The attachment's id", ID),
        type: string("image, video, audio, sticker or other", "image"),
        filename: string("The file's name", "receipt.png"),
        ...url,
      }),
    )
    .openapi({ description: "Files sent with the message" });

export const WebhookMessageSchema = z
  .object({
    id: string("The message's id: the same on every attempt, and the `webhook-id` header", ID),
    type: messageType,
    content: string("Its text", "We open at 9."),
    created_at: createdAt,
    ...StandardConversationParts,
    sender: z
      .object({
        id: nullable("The sender's id (an assistant's, a member's user id or a contact's)", ID),
        name: string("Their name", "Support bot"),
        type: z.enum(["chatbot", "user", "contact"]).openapi({ description: "Who sent it", example: "chatbot" }),
      })
      .openapi({ description: "Who sent the message" }),
    attachments: attachments({ source_url: fileUrl }),
    metadata: z
      .record(z.string(), z.unknown())
      .openapi({ description: "The message's metadata as stored", example: { locale: "en" } }),
  })
  .openapi("WebhookMessage", {
    description: "The `service_standard` preset's body (the default): one message of the inbox",
  });

export const WebhookLegacyMessageSchema = z
  .object({
    id: string("The message's id", ID),
    conversation: string("The conversation's id", ID),
    sender: z
      .object({
        id: nullable("The sender's id", ID),
        name: string("Their name", "Support bot"),
        avatar: nullable("URL of their picture", null),
      })
      .openapi({ description: "Who sent the message" }),
    type: messageType,
    content: string("Its text", "We open at 9."),
    feedback: z
      .record(z.string(), z.unknown())
      .nullable()
      .openapi({ description: "The visitor's feedback: a stored object as is, other text as {value}", example: null }),
    created_at: string("Milliseconds since the epoch", "1767225600000"),
    attachments: attachments({ file: fileUrl }),
    citations: z
      .array(z.record(z.string(), z.unknown()))
      .openapi({ description: "The reply's sources as stored", example: [] }),
  })
  .openapi("WebhookLegacyMessage", {
    description: "The `legacy` preset's body (the older format, kept for existing receivers)",
  });

export const WebhookConversationEventSchema = z
  .object({
    id: string("The event's id: the same on every attempt, and the `webhook-id` header", ID),
    event: z.literal("conversation.updated").openapi({ description: "The event", example: "conversation.updated" }),
    created_at: createdAt,
    reason: ChangeReasonSchema,
    changes: z.record(z.string(), z.tuple([z.unknown(), z.unknown()])).openapi({
      description: "Each of status, progress_status, assignee (a user id) and auto_reply_enabled that changed",
      example: { progress_status: ["waiting_for_human", "human_serving"] },
    }),
    ...StandardConversationParts,
  })
  .openapi("WebhookConversationEvent", {
    description:
      "A conversation's lifecycle change, to a webhook with `conversationEvents: true`: every preset but " +
      "`custom` sends this body",
  });

export type WebhookMessage = z.output<typeof WebhookMessageSchema>;
export type WebhookLegacyMessage = z.output<typeof WebhookLegacyMessageSchema>;
export type WebhookConversationEvent = z.output<typeof WebhookConversationEventSchema>;
