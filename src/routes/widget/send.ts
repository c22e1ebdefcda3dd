import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, IdempotencyHeaders, jsonBody } from "../../lib/openapi";
import { unauthenticated } from "../../lib/errors";
import {
  conversationObject,
  newConversation,
  newConversationId,
  type ConversationRow,
} from "../../services/conversations";
import { interruptible, SSE_HEADERS } from "../../services/sse";
import type { QueryMetadata } from "../../services/knowledge/query-scope";
import { activeWebChat } from "../../services/widget/web-chats";
import { visitorContact, visitorConversation, visitorOf } from "../../services/widget/visitors";
import { widgetEvents } from "../../services/widget/event-ids";
import { forgetAttachments, requireFileUpload, visitorAttachments } from "../../services/widget/uploads";
import type { AttachmentRow } from "../../services/records/attachments";
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
    const db = c.var.db;
    const chat = await activeWebChat(db, c.req.valid("param").id);
    const visitor = await visitorOf(c.env, chat, c.req.header("Authorization"));
    const body = c.req.valid("json");
    const files = body.attachments?.length ? body.attachments : undefined;
    if (files) requireFileUpload(chat);
    const { location, ...environment } = body.metadata ?? {};
    const metadata = {
      ...environment,
      ...(location && chat.webChat.settings.enableLocation ? { location } : {}),
      channel: "web_chat",
    };
    const [contact, conversation] = await Promise.all([
      visitorContact(db, chat, visitor),
      body.conversation ? visitorConversation(db, chat, visitor, body.conversation) : Promise.resolve(undefined),
    ]);
    if (!contact) throw unauthenticated("The visitor no longer exists; start a new session.");
    let created: ConversationRow | undefined;
    if (!conversation) {
      const values = {
        organizationId: chat.webChat.organizationId,
        inboxId: chat.inboxId,
        chatbotId: chat.assistant?.chatbot.id ?? null,
        contactId: contact.id,
      };
      created = newConversation(
        values,
        newConversationId(c.env, (p) => c.executionCtx.waitUntil(p)),
      );
    }
    const conversationId = conversation?.id ?? created!.id;
    // Checked and written before the message, which carries their records; taken back if it is refused.
    let written: AttachmentRow[] = [];
    let attachments: Record<string, unknown>[] | undefined;
    if (files)
      ({ stored: attachments, written } = await visitorAttachments(
        c.env,
        db,
        chat,
        visitor,
        new URL(c.req.url).origin,
        conversationId,
        files,
      ));
    let stream: Awaited<ReturnType<ReturnType<typeof conversationObject>["stream"]>>;
    try {
      stream = await conversationObject(c.env, conversationId).stream({
        conversationId,
        created,
        conversation,
        assistant: chat.assistant ?? undefined,
        sender: { type: "contact", id: contact.id, name: contact.name, avatar: contact.avatar },
        message: { content: body.content, metadata, ...(attachments ? { attachments } : {}) },
        contactQueryMetadata: (contact.queryMetadata as QueryMetadata | null) ?? null,
        requestId: c.var.requestId,
      });
    } catch (err) {
      await forgetAttachments(db, written);
      throw err;
    }
    return c.body(widgetEvents(interruptible(stream, c.var.requestId), chat.webChat.settings), 200, SSE_HEADERS);
  });
