// The `data` of each server-sent event of the widget's streams, as named schemas of the OpenAPI document: a reply's
// stream (`messages/`, `stream/`) and a conversation's live stream (`events/`). The server writes them with these
// types, and the widget reads them with the types generated from the same schemas.
import { z } from "@hono/zod-openapi";
import { CompletionStreamError, ToolCallEvent, ToolResultEvent, replyChunk } from "./completion-events";
import { ConversationSchema } from "./conversations";
import { PublicMessageSchema } from "./widget";

export const WidgetReplyChunk = replyChunk(
  PublicMessageSchema,
  "WidgetReplyChunk",
  "`data` of an event without a name, `id: <messageId>:<characters so far>`; the last one (`done: true`) carries " +
    "the stored reply in its public form, null when the conversation is with a human",
);

/** A reply's `text/event-stream` body: the `data` of each event, by its name. */
export const WidgetReplyStream = z
  .union([WidgetReplyChunk, ToolCallEvent, ToolResultEvent, CompletionStreamError])
  .openapi({
    description:
      "Each event's `data` is JSON: `WidgetReplyChunk` for events without a name, `ToolCallEvent` and " +
      "`ToolResultEvent` for `event: tool_call` and `event: tool_result` (only with `enableDisplayToolResults`), " +
      "`CompletionStreamError` for `event: error`; `: ping` comments every 10 s.",
  });

export const WidgetStatusEvent = ConversationSchema.pick({ status: true, progressStatus: true })
  .extend({
    agent: z
      .object({
        name: z.string().openapi({ description: "Their name", example: "Sam" }),
        avatar: z.string().nullable().openapi({ description: "URL of their picture; null: none", example: null }),
      })
      .nullable()
      .openapi({ description: "The person serving the conversation while one does (`human_serving`), else null" }),
  })
  .openapi("WidgetStatusEvent", {
    description: "`data` of an `event: status`: the conversation's state, first and whenever who serves it changes",
  });

export const WidgetTypingEvent = z
  .object({
    typing: z.boolean().openapi({ description: "true: started; false: stopped", example: true }),
    name: z.string().openapi({ description: "The person typing", example: "Sam" }),
  })
  .openapi("WidgetTypingEvent", { description: "`data` of an `event: typing`: a person of the business typing" });

export const WidgetReplyingEvent = z
  .object({
    replying: z.boolean().openapi({ description: "Whether the assistant is composing a reply now", example: false }),
  })
  .openapi("WidgetReplyingEvent", {
    description:
      "`data` of an `event: replying`: when the stream opens, then each time a reply begins or ends (a stored " +
      "reply's `message` event comes first; `false` alone is a reply that failed)",
  });

/** The live stream's `text/event-stream` body: the `data` of each event, by its name. */
const WidgetStreamEndedEvent = z
  .object({
    code: z.string().openapi({
      description:
        "not_authenticated (the token is no longer taken: start a session again), web_chat_inactive (the web chat " +
        "was closed), not_found (the conversation is not the visitor's any more), server_error (not checked: open " +
        "the stream again)",
      example: "not_authenticated",
    }),
    detail: z.string().openapi({ description: "Why", example: "Invalid visitor token." }),
  })
  .openapi("WidgetStreamEndedEvent", { description: "`data` of the last event, `event: error`: the stream ended" });

export const WidgetLiveStream = z
  .union([PublicMessageSchema, WidgetStatusEvent, WidgetTypingEvent, WidgetReplyingEvent, WidgetStreamEndedEvent])
  .openapi({
    description:
      "Each event's `data` is JSON: `WidgetMessage` for `event: message` (`id:` the message's id), " +
      "`WidgetStatusEvent` for `event: status`, `WidgetTypingEvent` for `event: typing`, `WidgetReplyingEvent` for " +
      "`event: replying`, `WidgetStreamEndedEvent` for `event: error`; `: ping` comments every 10 s.",
  });

export type WidgetStatus = z.output<typeof WidgetStatusEvent>;
export type WidgetTyping = z.output<typeof WidgetTypingEvent>;
export type WidgetReplying = z.output<typeof WidgetReplyingEvent>;
