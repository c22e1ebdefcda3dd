// The `data` of each server-sent event of a streamed completion (CONTRACT sections 7 and 11), as
// named schemas of the OpenAPI document: the console's try-it panel (and any generated client)
// reads its events with these types instead of guessing them.
import { z } from "@hono/zod-openapi";
import { MessageSchema } from "./messages";

const ids = {
  conversationId: z.string().openapi({
    description: "The conversation (a new one's id on a first question)",
    example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3e",
  }),
  messageId: z.string().nullable().openapi({
    description: "The reply's message id; null when no reply comes (the conversation is with a human)",
    example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3f",
  }),
};

/** A reply's text event whose last one carries the stored reply as `message` (a completion's `Message`, or the
 * widget's public form of it). */
export const replyChunk = <M extends z.ZodType>(message: M, name: string, description: string) =>
  z
    .object({
      ...ids,
      content: z
        .string()
        .openapi({ description: "The next piece of the answer; empty in the last event", example: "We open" }),
      done: z.boolean().openapi({ description: "True in the last event", example: false }),
      // A union, not .nullable(): the document then says anyOf [Message, null], which generated clients
      // type as `Message | null` (a nullable $ref becomes allOf, typed as an intersection).
      message: z.union([message, z.null()]).optional().openapi({
        description: "Only in the last event: the stored reply, null when the conversation is with a human",
      }),
    })
    .openapi(name, { description });

export const CompletionChunk = replyChunk(
  MessageSchema,
  "CompletionChunk",
  "`data` of an event without a name (a `message` event); the last one (`done: true`) carries the stored " +
    "reply in `message`, null when the conversation is with a human",
);

const toolCall = {
  id: z
    .string()
    .openapi({ description: "The tool execution record's id", example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c40" }),
  callId: z.string().openapi({ description: "The model's id of the call", example: "call_1" }),
  name: z.string().openapi({ description: "The tool's name", example: "order_status" }),
  displayName: z.string().openapi({ description: "The tool's display name", example: "Order status" }),
  toolType: z
    .string()
    .openapi({ description: "api, function, mcp, flex, quick_reply, desktop, or a built-in", example: "api" }),
  input: z
    .record(z.string(), z.unknown())
    .openapi({ description: "The arguments the model gave", example: { orderId: "A-1001" } }),
};

const toolResult = {
  status: z.enum(["success", "failure", "pending", "timeout"]).openapi({
    description:
      "success; failure (see error); timeout (the tool took too long); pending (left to the client, as a desktop " +
      "tool is)",
    example: "success",
  }),
  output: z.unknown().openapi({ description: "What the tool returned (text or JSON)", example: { status: "shipped" } }),
  error: z
    .string()
    .nullable()
    .openapi({ description: "Why the call failed or timed out; null otherwise", example: null }),
  durationMs: z
    .number()
    .nullable()
    .openapi({ description: "Milliseconds the call took; null when it did not run here", example: 182 }),
};

export const ToolCallEvent = z
  .object({ ...ids, ...toolCall })
  .openapi("ToolCallEvent", { description: "`data` of an `event: tool_call`: the model called a tool" });

/** A finished call: the `tool_result` event, and each item of an agent reply's `contentPayload.toolCalls` (without the
 * ids). */
export const ToolResultEvent = z.object({ ...ids, ...toolCall, ...toolResult }).openapi("ToolResultEvent", {
  description:
    "`data` of an `event: tool_result`; an agent reply's `contentPayload.toolCalls` holds the same fields but " +
    "the conversation and message ids",
});

export const CompletionStreamError = z
  .object({
    detail: z.string().openapi({ description: "Human-readable explanation", example: "The model provider failed." }),
    code: z.string().openapi({ description: "Stable machine code, as in error answers", example: "upstream_error" }),
    requestId: z.string().optional().openapi({
      description: "The request's id, as in the X-Request-Id header: quote it when reporting a problem",
      example: "0190a5c2-7d1e-7f00-8000-3b1c2d4e5f60",
    }),
    conversationId: z.string().optional().openapi({
      description: "The conversation the message went to (a new one when none was given)",
      example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3e",
    }),
    incomingId: z
      .string()
      .optional()
      .openapi({
        description:
          "The message sent, when it was stored and only the reply failed: it is in the conversation, so sending it " +
          "again would post it twice",
        example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3f",
      }),
  })
  .openapi("CompletionStreamError", {
    description: "`data` of an `event: error`: the reply failed after the stream started",
  });

/** The `text/event-stream` body: the `data` of each event, by its name. */
export const CompletionStreamEvent = z
  .union([CompletionChunk, ToolCallEvent, ToolResultEvent, CompletionStreamError])
  .openapi({
    description:
      "Each event's `data` is JSON: `CompletionChunk` for events without a name (text deltas, then the last " +
      "one with `done: true` and the stored `message`), " +
      "`ToolCallEvent` for `event: tool_call`, `ToolResultEvent` for `event: tool_result`, " +
      "`CompletionStreamError` for `event: error`; `: ping` comments every 10 s.",
  });
