import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, IdempotencyHeaders, jsonBody } from "../../lib/openapi";
import { SSE_HEADERS } from "../../services/sse";
import { sendVisitorMessage } from "../../services/widget/send";
import { chatVisitor } from "./visitor";
import { SSE_EXAMPLE, VISITOR_SECURITY, WIDGET_TAG, WebChatParams } from "./schema";

const SendBody = z
  .object({
    conversation: z
      .union([z.uuid(), z.literal(""), z.null()])
      .optional()
      .openapi({
        description: "One of the visitor's conversations; absent, null or empty starts a new one",
        example: "",
      }),
    content: z.string().trim().max(32_000, "At most 32,000 characters").openapi({
      description: "The visitor's message (may be empty when files are attached)",
      example: "What are your opening hours?",
    }),
    attachments: z
      .array(
        z
          .object({
            file: z
              .string()
              .trim()
              .min(1)
              .max(2048)
              .openapi({
                description:
                  "`fields.key` of the visitor's upload from `uploads/` (or our URL of it); any other URL is " +
                  "400 and never fetched",
                example: "uploads/0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d/attachment/5f0c.../notes.txt",
              }),
            filename: z
              .string()
              .trim()
              .min(1)
              .max(255)
              .openapi({ description: "Name shown for the file", example: "notes.txt" }),
          })
          .openapi("WidgetAttachmentInput"),
      )
      .max(10, "At most 10 files")
      .optional()
      .openapi({
        description:
          "Files the visitor uploaded through `uploads/` (web chats with enableFileUpload, else 403); the " +
          "assistant reads them",
        example: [
          { file: "uploads/0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d/attachment/5f0c.../notes.txt", filename: "notes.txt" },
        ],
      }),
    metadata: z
      .object({
        timeZone: z
          .string()
          .max(100)
          .optional()
          .openapi({ description: "The visitor's time zone", example: "Europe/Paris" }),
        pageUrl: z
          .string()
          .max(2000)
          .optional()
          .openapi({ description: "The page the visitor is on", example: "https://example.com/pricing" }),
        location: z
          .object({
            latitude: z.number().min(-90).max(90).openapi({ description: "Degrees", example: 48.85 }),
            longitude: z.number().min(-180).max(180).openapi({ description: "Degrees", example: 2.35 }),
          })
          .optional()
          .openapi({ description: "The visitor's position (kept only when the web chat has enableLocation)" }),
      })
      .optional()
      .openapi({ description: "Environment data stored with the message" }),
  })
  .superRefine((body, ctx) => {
    if (!body.content && !body.attachments?.length)
      ctx.addIssue({ code: "custom", path: ["content"], message: "Required" });
  })
  .openapi("WidgetSend");

const route = createRoute({
  method: "post",
  path: "/web-chats/{id}/public/messages/",
  tags: [WIDGET_TAG],
  summary: "Send a visitor's message; the reply streams back",
  description:
    "Needs the visitor token. Ordered and answered by the conversation's Durable Object like a streamed completion " +
    "(CONTRACT section 7), with an `id: <messageId>:<characters so far>` on every reply event (for " +
    "`Last-Event-ID` on " +
    "`conversations/{conversationId}/stream/`), the public message record in the last event, and `event: " +
    "error` on failure. With `enableFileUpload`, " +
    "`attachments` name files the visitor uploaded through `uploads/` (all are checked before any is written; " +
    "a foreign URL " +
    "or a key that is not the visitor's own upload is 400 and never fetched); without it, files are 403 " +
    "`file_upload_disabled`.",
  security: VISITOR_SECURITY,
  request: { params: WebChatParams, headers: IdempotencyHeaders, ...jsonBody(SendBody) },
  responses: {
    200: {
      description: "The reply as server-sent events",
      content: { "text/event-stream": { schema: z.string().openapi({ example: SSE_EXAMPLE }) } },
    },
    ...errorResponses(400, 403, 404, 409, 422, 503),
  },
});

export const registerWidgetSend = (r: Router) =>
  r.openapi(route, async (c) => {
    const { chat, visitor, data } = await chatVisitor(c, c.req.valid("param").id);
    const events = await sendVisitorMessage(c.env, c.var.db, data, chat, visitor, c.req.valid("json"), {
      origin: new URL(c.req.url).origin,
      requestId: c.var.requestId,
      waitUntil: (p) => c.executionCtx.waitUntil(p),
    });
    return c.body(events, 200, SSE_HEADERS);
  });
