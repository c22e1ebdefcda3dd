import { z } from "@hono/zod-openapi";
import { CONVERSATION_STATUSES, THEME_MODES, WEB_CHAT_ACCESS_TYPES } from "../../db/schema";
import { uuidParam } from "../../lib/openapi";
import { ThemeSchema, WebChatFlags } from "../../services/records/web-chats";

export const WIDGET_TAG = "Web chat widget";
/** Routes that need the visitor token of the session endpoint. */
export const VISITOR_SECURITY = [{ WidgetToken: [] }];

export const WebChatParams = z.object({ id: uuidParam("id", "Web chat id") });
export const ConversationParams = WebChatParams.extend({
  conversationId: uuidParam("conversationId", "One of the visitor's conversations"),
});
export const MessageParams = WebChatParams.extend({
  messageId: uuidParam("messageId", "A message of one of the visitor's conversations"),
});

const text = (description: string, example: string | null) => z.string().nullable().openapi({ description, example });

export const PublicConfigSchema = z
  .object({
    id: z.string().openapi({ description: "Web chat id", example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" }),
    name: z.string().openapi({ description: "Title of the chat", example: "Website chat" }),
    avatar: text("Assistant avatar URL", "https://cdn.example.com/avatar.png"),
    logo: text("Logo URL", "https://cdn.example.com/logo.png"),
    cover: text("Cover image URL", null),
    poweredByLogo: text("Powered-by logo URL", null),
    description: text("Text under the title", "Ask us anything"),
    backUrl: text("Where the full page's back button leads", "https://example.com"),
    isActive: z
      .boolean()
      .openapi({ description: "False: the widget shows a closed notice and the API refuses visitors", example: true }),
    accessType: z
      .enum(WEB_CHAT_ACCESS_TYPES)
      .openapi({ description: "private: visitors need an identity signed by the site", example: "public" }),
    assistantName: z
      .string()
      .nullable()
      .openapi({ description: "The assistant's name (enableDisplayChatbotName)", example: "Ava" }),
    enableSpeech: z.boolean().openapi({ description: "Voice input and read-aloud", example: false }),
    displayGreeting: z.string().openapi({ description: "First message shown", example: "Hello! How can I help?" }),
    displayConversationStarters: z
      .array(z.string())
      .openapi({ description: "Suggested first questions", example: ["Opening hours?"] }),
    theme: ThemeSchema,
    darkTheme: ThemeSchema,
    defaultThemeMode: z
      .enum(THEME_MODES)
      .openapi({ description: "light, dark or system (the default)", example: "system" }),
  })
  .extend(WebChatFlags.shape)
  .openapi("WidgetConfig");

export const VisitorConversationSchema = z
  .object({
    id: z.string().openapi({ description: "Conversation id", example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" }),
    title: z.string().openapi({ description: "The first question, shortened", example: "Opening hours?" }),
    lastMessage: z.string().nullable().openapi({ description: "Latest message, shortened", example: "We open at 9." }),
    lastMessageAt: z
      .string()
      .nullable()
      .openapi({ description: "Milliseconds since the epoch", example: "1767225600000" }),
    createdAt: z.string().openapi({ description: "Milliseconds since the epoch", example: "1767225600000" }),
    status: z.enum(CONVERSATION_STATUSES).openapi({
      description: "open, queued (waiting for a team member) or resolved (a message from the visitor opens it again)",
      example: "open",
    }),
    rated: z.boolean().openapi({
      description:
        "The visitor rated it (`csat/`); the widget asks for a rating when it shows a resolved one not rated",
      example: false,
    }),
  })
  .openapi("WidgetConversation");

export const SessionBody = z
  .object({
    token: z.string().max(1000).optional().openapi({
      description: "A token this web chat issued before (even expired, within 30 days): resumes that visitor",
      example: "v1.eyJ3Ijo...abc",
    }),
    contact: z
      .object({
        sourceId: z
          .string()
          .min(1)
          .max(200)
          .optional()
          .openapi({ description: "The visitor's id in the site (with identityToken)", example: "user-42" }),
        identityToken: z.string().max(200).optional().openapi({
          description:
            "hex HMAC-SHA256 of sourceId (or `sourceId:identityExpiresAt`) with the web chat's identity secret",
          example: "9f2c...e1",
        }),
        identityExpiresAt: z.number().int().positive().optional().openapi({
          description:
            "Seconds since the epoch after which the identity lapses (then signed as `sourceId:identityExpiresAt`)",
          example: 1767225600,
        }),
        name: z.string().max(200).optional().openapi({ description: "The visitor's name", example: "Ada" }),
        email: z
          .email()
          .max(254)
          .optional()
          .openapi({ description: "The visitor's e-mail", example: "ada@example.com" }),
      })
      .optional()
      .openapi({ description: "Who the visitor is: a signed identity, or a name/e-mail from the pre-chat form" }),
  })
  .openapi("WidgetSessionRequest");

export const SessionSchema = z
  .object({
    token: z.string().openapi({
      description: "Visitor token: `Authorization: Bearer <token>` on the other public endpoints",
      example: "v1.eyJ3Ijo...abc",
    }),
    expiresAt: z.string().openapi({
      description: "When the token lapses (ms since the epoch); renew it through this endpoint",
      example: "1767232800000",
    }),
    contact: z.object({
      id: z
        .string()
        .openapi({ description: "The visitor's contact id", example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" }),
      name: z.string().openapi({ description: "Display name", example: "Visitor 1A2B" }),
      email: z.string().nullable().openapi({ description: "E-mail, when known", example: null }),
      identified: z.boolean().openapi({ description: "Identified by a signed identity", example: false }),
    }),
    conversations: z
      .array(VisitorConversationSchema)
      .openapi({ description: "The visitor's conversations, latest first" }),
  })
  .openapi("WidgetSession");

export const PublicMessageSchema = z
  .object({
    id: z.string().openapi({ description: "Message id", example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" }),
    conversation: z
      .string()
      .openapi({ description: "Conversation id", example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" }),
    sequence: z.number().int().openapi({ description: "Order in the conversation", example: 2 }),
    role: z.enum(["visitor", "assistant", "agent"]).openapi({ description: "Who wrote it", example: "assistant" }),
    senderName: z.string().openapi({ description: "Sender's display name", example: "Ava" }),
    senderAvatar: z.string().nullable().openapi({ description: "Sender's avatar", example: null }),
    content: z.string().openapi({ description: "Text (Markdown for assistant replies)", example: "We open at 9." }),
    feedback: z.string().nullable().openapi({ description: "like, dislike or null", example: null }),
    citations: z
      .array(
        z.object({
          index: z.number().int().openapi({ description: "The n of an in-line [n] marker", example: 1 }),
          title: z.string().openapi({ description: "File name or FAQ question", example: "opening-hours.pdf" }),
          snippet: z
            .string()
            .openapi({ description: "The cited passage, shortened", example: "We open at 9 on weekdays." }),
          page: z.number().int().nullable().openapi({ description: "Page of the file", example: 2 }),
        }),
      )
      .openapi({ description: "Sources (enableDisplayCitations)" }),
    toolResults: z
      .array(
        z.object({
          name: z.string().openapi({ description: "Tool name", example: "order_status" }),
          status: z.string().openapi({ description: "success, failure, pending or timeout", example: "success" }),
          output: z.string().openapi({ description: "Result, shortened", example: "Shipped" }),
        }),
      )
      .openapi({ description: "Results of tool calls (enableDisplayToolResults)" }),
    attachments: z
      .array(
        z.object({
          filename: z.string().openapi({ description: "File name", example: "notes.txt" }),
          type: z.string().openapi({ description: "image, video, audio, sticker or other", example: "other" }),
        }),
      )
      .openapi({ description: "Files sent with the message (names only)" }),
    createdAt: z.string().openapi({ description: "Milliseconds since the epoch", example: "1767225600000" }),
  })
  .openapi("WidgetMessage");

export const SSE_EXAMPLE =
  'id: 0190...:2\ndata: {"conversationId":"0190...","messageId":"0190...","content":"We","done":false}';
