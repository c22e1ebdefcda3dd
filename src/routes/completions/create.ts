import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, IdempotencyHeaders, jsonBody, uuidParam } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { complete } from "../../services/conversation/completion";
import { completionAnswer } from "../../services/conversation/turn-result";
import { SSE_HEADERS } from "../../services/sse";
import { MessageFields } from "../messages/schema";
import { MessageSchema } from "../../services/records/messages";
import { CompletionStreamEvent } from "../../services/records/completion-events";
import { QueryMetadataSchema } from "../../services/records/query-metadata";

const Completion = z
  .object({
    conversation: z
      .union([z.uuid(), z.literal(""), z.null()])
      .optional()
      .openapi({
        description: "Conversation to continue; absent, null or empty starts one in the assistant's default inbox",
        example: "",
      }),
    message: z
      .object({
        ...MessageFields,
        // White space alone is no question: refused as empty text is (the widget trims it away).
        content: MessageFields.content.regex(/\S/, "Required"),
        queryMetadata: QueryMetadataSchema.optional(),
        sender: z.uuid().optional().openapi({
          description: "A contact of your organization (else 400)",
          example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d",
        }),
      })
      .openapi({
        description: "The message the assistant answers: `content` is its text",
        example: { content: "What are your opening hours?" },
      }),
    isStreaming: z
      .boolean()
      .default(false)
      .openapi({ description: "Stream the reply as server-sent events (`is_streaming` works too)", example: false }),
    waitForAttachments: z
      .boolean()
      .default(true)
      .openapi({ description: "Wait for attachment processing first (v1)", example: true }),
    test: z
      .boolean()
      .optional()
      .openapi({
        description:
          "Start the conversation as a test (the console's try-it): it is listed with `isTest: true`, can be " +
          "filtered with `isTest`, and is left out of the assistant's statistics unless they are asked to " +
          "include tests. Read only when a conversation starts; a continued conversation keeps what it is. " +
          "Default false.",
        example: false,
      }),
  })
  .openapi("CompletionRequest");

const Reply = z
  .object({
    conversationId: z.string().openapi({
      description: "The conversation of the question and reply (a new one when none was given)",
      example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d",
    }),
    content: z.string().openapi({
      description: "The assistant's answer (empty while the conversation is with a human)",
      example: "We open at 9.",
    }),
    message: z.union([MessageSchema, z.null()]).openapi({
      description: "The stored reply; null when the conversation is with a human",
    }),
  })
  .openapi("CompletionReply");

const route = createRoute({
  method: "post",
  path: "/chatbots/{chatbotId}/completions/",
  tags: ["Conversations"],
  summary: "Talk to an assistant: the reply directly, or streamed",
  description:
    "Needs `conversation.manage` and access to the assistant. Streaming (`isStreaming`): `text/event-stream` of " +
    '`data: {"conversationId","messageId","content":"<delta>","done":false}`, ending with `done: true` and ' +
    "the stored `message`; " +
    "in agent mode `event: tool_call` and `event: tool_result` as tools run; failures after the stream " +
    "started are `event: error` with `{detail, code}`; " +
    "a `: ping` comment every 10 s. The `text/event-stream` schema gives each event's `data`. 403 " +
    "`permission_denied`, with nothing stored, once the plan's words of the month are used or the organization's " +
    "plan has expired (`organizationPlan.expiredAt`).",
  request: {
    params: z.object({ chatbotId: uuidParam("chatbotId", "Assistant id") }),
    headers: IdempotencyHeaders,
    ...jsonBody(Completion),
  },
  responses: {
    200: {
      description: "The reply, or an event stream when streaming",
      content: { "application/json": { schema: Reply }, "text/event-stream": { schema: CompletionStreamEvent } },
    },
    ...errorResponses(400, 403, 404, 409, 422, 502),
  },
});

export const registerCompletion = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "conversation.manage");
    const { chatbotId } = c.req.valid("param");
    const { conversation, message, isStreaming, waitForAttachments, test } = c.req.valid("json");
    const { sender, ...fields } = message;
    const request = {
      access,
      userId: c.var.principal.userId,
      requestId: c.var.requestId,
      origin: new URL(c.req.url).origin,
      chatbotId,
      conversationId: conversation || undefined,
      sender,
      message: fields,
      isStreaming,
      waitForAttachments,
      isTest: test ?? false,
    };
    const done = await complete(c.env, c.var.db, c.var.data, (p) => c.executionCtx.waitUntil(p), request);
    if ("stream" in done) return c.body(done.stream, 200, SSE_HEADERS);
    return c.json(completionAnswer(done.result, done.conversationId), 200);
  });
