import { z } from "@hono/zod-openapi";
import { nameText, oneLine } from "../../lib/openapi";
import { hasVisibleCharacter, wellFormed } from "../../lib/text";
import { CONVERSATION_STATUSES, THEME_MODES, WEB_CHAT_ACCESS_TYPES, type WebChatSettings } from "../../db/schema";
import type { ConversationRow, MessageRow } from "../conversations";
import type { PublicWebChat } from "../widget/web-chats";
import { messageRecord, type MessageRecord } from "./messages";
import { chatDisplayFields, text, WEB_CHAT_FLAGS, WebChatFlags, type WebChatFlag, webChatRecord } from "./web-chats";

/** A file of a visitor's message, as the widget's send body names it. */
export const WidgetAttachmentInput = z
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
    // A file name is a name: on one line, as POST attachments/ takes it.
    filename: nameText(255)
      .transform(wellFormed)
      .openapi({ description: "Name shown for the file", example: "notes.txt" }),
  })
  .openapi("WidgetAttachmentInput");

/**
 * The widget's send body (`POST /web-chats/{id}/public/messages/`). Kept below the route so that the widget
 * service's `VisitorMessage` is inferred from it (services may not import routes).
 */
export const SendBody = z
  .object({
    conversation: z
      .union([z.uuid(), z.literal(""), z.null()])
      .optional()
      .openapi({
        description: "One of the visitor's conversations; absent, null or empty starts a new one",
        example: "",
      }),
    content: z.string().trim().max(32_000, "At most 32,000 characters").transform(wellFormed).openapi({
      description: "The visitor's message (may be empty when files are attached)",
      example: "What are your opening hours?",
    }),
    attachments: z
      .array(WidgetAttachmentInput)
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
    ...chatDisplayFields,
    defaultThemeMode: z
      .enum(THEME_MODES)
      .openapi({ description: "light, dark or system (the default)", example: "system" }),
  })
  .extend(WebChatFlags.shape)
  .openapi("WidgetConfig");

export type WidgetConfig = z.infer<typeof PublicConfigSchema>;

/**
 * The widget's configuration: the web chat record without its inbox, custom domain and timestamps.
 * `enableFileUpload` is the web chat's own switch: visitors upload through `public/uploads/`.
 */
export function publicConfig(chat: PublicWebChat): WidgetConfig {
  const record = webChatRecord({ webChat: chat.webChat, inbox: { id: "", name: "" } });
  const flags = Object.fromEntries(WEB_CHAT_FLAGS.map((k) => [k, record[k]])) as Record<WebChatFlag, boolean>;
  return {
    id: record.id,
    name: record.name,
    avatar: record.avatar,
    logo: record.logo,
    cover: record.cover,
    poweredByLogo: record.poweredByLogo,
    description: record.description,
    backUrl: record.backUrl,
    isActive: record.isActive,
    accessType: record.accessType,
    assistantName: chat.assistant?.chatbot.name ?? null,
    enableSpeech: record.enableSpeech,
    displayGreeting: record.displayGreeting,
    displayConversationStarters: record.displayConversationStarters,
    theme: record.theme,
    darkTheme: record.darkTheme,
    defaultThemeMode: record.defaultThemeMode ?? "system",
    ...flags,
  };
}

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

export type VisitorConversation = z.infer<typeof VisitorConversationSchema>;

/** A visitor's conversation as the widget lists it. */
export const visitorConversationRecord = (c: ConversationRow): VisitorConversation => ({
  id: c.id,
  title: c.title,
  lastMessage: c.lastMessage,
  lastMessageAt: c.lastMessageAt === null ? null : String(c.lastMessageAt),
  createdAt: String(c.createdAt),
  status: c.status,
  // The widget asks for a rating when it shows a resolved conversation the visitor has not rated.
  rated: c.csatAt !== null,
});

/** The session request, here below the routes so that startSession can take it as parsed. */
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
        name: oneLine(z.string().max(200))
          // A name of only invisible characters (zero-width, BOM) is none: the visitor is "Visitor 1A2B", not a blank.
          .transform((name) => (hasVisibleCharacter(name) ? wellFormed(name) : ""))
          .optional()
          .openapi({ description: "The visitor's name", example: "Ada" }),
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
    contact: z
      .object({
        id: z
          .string()
          .openapi({ description: "The visitor's contact id", example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" }),
        name: z.string().openapi({ description: "Display name", example: "Visitor 1A2B" }),
        email: z.string().nullable().openapi({ description: "E-mail, when known", example: null }),
        identified: z.boolean().openapi({ description: "Identified by a signed identity", example: false }),
      })
      .openapi({ description: "The visitor, as the web chat's contact" }),
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
    idempotencyKey: z
      .string()
      .nullable()
      .openapi({
        description:
          "The visitor's own message: the `Idempotency-Key` its send gave, so a client tells the message it sent " +
          "from the same words sent elsewhere (another tab); null for other messages, and in a shared transcript",
        example: null,
      }),
  })
  .openapi("WidgetMessage");

/** A message as the widget shows it: what the visitor may see and nothing internal (no ids of other resources). */
export type PublicMessage = z.infer<typeof PublicMessageSchema>;
/** A source of an answer as a visitor sees it: no ids of knowledge bases or files. */
export type PublicCitation = PublicMessage["citations"][number];

const SNIPPET = 280;
const str = (v: unknown) => (typeof v === "string" ? v : "");

function citationsOf(m: MessageRecord): PublicCitation[] {
  return m.citationNodes.map((entry, i) => {
    const node = (entry.node ?? {}) as Record<string, unknown>;
    const faq = node.faq as { question?: string } | null | undefined;
    const text = str(node.text);
    return {
      index: i + 1,
      title: str(node.filename) || str(faq?.question) || `Source ${i + 1}`,
      snippet: text.length > SNIPPET ? `${text.slice(0, SNIPPET - 1)}…` : text,
      page: typeof node.pageStart === "number" ? node.pageStart : null,
    };
  });
}

function toolResultsOf(m: MessageRecord): PublicMessage["toolResults"] {
  const calls = (m.contentPayload?.toolCalls ?? []) as Record<string, unknown>[];
  if (!Array.isArray(calls)) return [];
  return calls.map((call) => {
    const output = typeof call.output === "string" ? call.output : JSON.stringify(call.output ?? "");
    return {
      name: str(call.name) || str((call.tool as Record<string, unknown> | undefined)?.name),
      status: str(call.status) || "success",
      output: output.slice(0, 2000),
    };
  });
}

/** The public form of a message record or row, honouring the web chat's display switches. */
export function publicMessage(
  message: MessageRecord | MessageRow,
  settings: WebChatSettings,
  /** A shared transcript, read by anyone with its link: the visitor's keys stay theirs. */
  shared = false,
): PublicMessage {
  const m = "conversationId" in message ? messageRecord(message) : message;
  const role = m.senderType === "contact" ? "visitor" : m.senderType === "chatbot" ? "assistant" : "agent";
  const key = role === "visitor" && !shared ? str(m.metadata.idempotencyKey) : "";
  return {
    id: m.id,
    conversation: m.conversation,
    sequence: m.sequence,
    role,
    senderName: m.sender.name,
    senderAvatar: m.sender.avatar,
    content: m.content,
    feedback: m.feedback,
    citations: role === "assistant" && settings.enableDisplayCitations ? citationsOf(m) : [],
    toolResults: role === "assistant" && settings.enableDisplayToolResults ? toolResultsOf(m) : [],
    attachments: (m.attachments as unknown[])
      .filter((a): a is Record<string, unknown> => !!a && typeof a === "object")
      .map((a) => ({ filename: str(a.filename) || "file", type: str(a.type) || "other" })),
    createdAt: m.createdAt,
    idempotencyKey: key || null,
  };
}
