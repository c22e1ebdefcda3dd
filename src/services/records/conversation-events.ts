// The `data` of each event of the organization's live conversation stream (`conversation-events/`), as named schemas
// of the OpenAPI document: the server builds its events with these types, and the console (or any generated client)
// reads them with the same ones.
import { z } from "@hono/zod-openapi";
import { ConversationSchema } from "./conversations";
import { MessageSchema } from "./messages";
import { CHANGE_REASONS } from "../../db/schema";

const ref = (what: string) =>
  z
    .object({ id: z.string().openapi({ description: "Its id", example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" }) })
    .openapi({ description: `${what} (its id: GET /conversations/{id}/ gives its name)` });

export const LiveConversationSchema = ConversationSchema.pick({
  id: true,
  title: true,
  status: true,
  progressStatus: true,
  autoReplyEnabled: true,
  waitingSince: true,
  lastMessage: true,
  lastMessageCreatedAt: true,
  unreadCount: true,
  createdAt: true,
  csat: true,
})
  .extend({
    inbox: ref("The inbox it came through"),
    chatbot: ref("The assistant").nullable(),
    contact: ref("The visitor").nullable(),
    assignee: ref("The member serving it or asked to").nullable(),
    team: ref("The team (a group) it is assigned to").nullable(),
  })
  .openapi("LiveConversation", {
    description:
      "A conversation as the live stream carries it: its state and the ids of what it belongs to. Built from the " +
      "conversation alone, so every event is sent without a read",
  });

export const ChangeReasonSchema = z
  .enum(CHANGE_REASONS)
  .openapi({ description: "Why its state changed (CONTRACT section 18)", example: "operator" });

const change = <T extends z.ZodType>(value: T, what: string) =>
  z
    .tuple([value, value])
    .optional()
    .openapi({ description: `${what} as [before, after]` });

export const LifecycleChangesSchema = z
  .object({
    status: change(z.string(), "status"),
    progressStatus: change(z.string(), "progressStatus"),
    assignee: change(z.string().nullable(), "The assignee's id"),
    autoReplyEnabled: change(z.boolean(), "autoReplyEnabled"),
  })
  .openapi("LifecycleChanges", { description: "Each lifecycle field that changed" });

export const ConversationCreatedEvent = z
  .object({ conversation: LiveConversationSchema })
  .openapi("ConversationCreatedEvent", { description: "`data` of an `event: conversation.created`" });

export const ConversationUpdatedEvent = z
  .object({
    conversation: LiveConversationSchema,
    changes: LifecycleChangesSchema.optional().openapi({
      description: "What changed; absent when only the unread count did (`read/`)",
    }),
    reason: ChangeReasonSchema.optional(),
  })
  .openapi("ConversationUpdatedEvent", {
    description:
      "`data` of an `event: conversation.updated`: handoff, takeover, hand back, resolve, a visitor's message " +
      "reopening a resolved one, a read",
  });

export const MessageCreatedEvent = z
  .object({
    conversation: LiveConversationSchema,
    message: MessageSchema.openapi({ description: "The message record, as `GET /messages/{id}/` gives it" }),
  })
  .openapi("MessageCreatedEvent", { description: "`data` of an `event: message.created`: the message stored" });

export const ConversationTypingEvent = z
  .object({
    conversationId: z
      .string()
      .openapi({ description: "The conversation", example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" }),
    typing: z.boolean().openapi({ description: "true: started; false: stopped", example: true }),
    sender: z
      .object({
        type: z.enum(["contact", "user"]).openapi({ description: "The visitor or a member", example: "contact" }),
        id: z.string().openapi({ description: "Their id", example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3e" }),
        name: z.string().openapi({ description: "Their name", example: "Ada" }),
      })
      .openapi({ description: "Who is typing" }),
  })
  .openapi("ConversationTypingEvent", {
    description: "`data` of an `event: conversation.typing`: someone is typing, or stopped; never stored",
  });

export const StreamReadyEvent = z
  .object({ subscribers: z.number().int().openapi({ description: "Streams open on this hub", example: 1 }) })
  .openapi("StreamReadyEvent", { description: "`data` of the first event, `event: ready`: subscribed" });

export const StreamEndedEvent = z
  .object({
    detail: z.string().openapi({ description: "Why the stream ended", example: "The API key was revoked." }),
    code: z.string().openapi({
      description:
        "not_authenticated (the key or session is revoked or expired), permission_denied (the member left or lost " +
        "`conversation.view`), server_error (the access could not be checked: open it again)",
      example: "not_authenticated",
    }),
  })
  .openapi("StreamEndedEvent", { description: "`data` of the last event, `event: error`: the stream ended for good" });

/** The `text/event-stream` body: the `data` of each event, by its name. */
export const ConversationEventStream = z
  .union([
    StreamReadyEvent,
    ConversationCreatedEvent,
    ConversationUpdatedEvent,
    MessageCreatedEvent,
    ConversationTypingEvent,
    StreamEndedEvent,
  ])
  .openapi({
    description:
      "Each event's `data` is JSON: `StreamReadyEvent` for `ready`, `ConversationCreatedEvent` for " +
      "`conversation.created`, `ConversationUpdatedEvent` for `conversation.updated`, `MessageCreatedEvent` for " +
      "`message.created`, `ConversationTypingEvent` for `conversation.typing`, `StreamEndedEvent` for `error`; " +
      "`: ping` comments every 10 s.",
  });

export type LiveConversation = z.output<typeof LiveConversationSchema>;
export type ChangeReason = z.output<typeof ChangeReasonSchema>;
export type LifecycleChanges = z.output<typeof LifecycleChangesSchema>;
export type TypingEvent = z.output<typeof ConversationTypingEvent>;
