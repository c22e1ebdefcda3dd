import { z } from "@hono/zod-openapi";
import { JsonValue, stored } from "../../lib/json";
import { Timestamp } from "../../lib/openapi";
import { ms } from "../../lib/time";
import type { MessageRow } from "../conversations";

const obj = (description: string, example: Record<string, unknown> = {}) =>
  z.record(z.string(), JsonValue).openapi({ description, example });

export const Sender = z
  .object({
    id: z
      .string()
      .nullable()
      .openapi({
        description:
          "By senderType: the assistant's id, the member's user id or the contact's id; null when it has none (a " +
          "message the platform wrote, such as a satisfaction survey of a deleted assistant)",
        example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d",
      }),
    name: z.string().openapi({ description: "The sender's name when the message was stored", example: "Support bot" }),
    avatar: z.string().nullable().openapi({ description: "URL of the sender's picture; null: none", example: null }),
  })
  .openapi("MessageSender", { description: "Who sent the message, as they were when it was stored" });

const id = (description: string) =>
  z.string().openapi({ description, example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" });
const page = (description: string) => z.number().int().nullable().openapi({ description, example: 2 });

/** A passage a reply was given (services/knowledge/retrieval: the node of each retrieved passage). */
export const CitedPassage = z
  .object({
    id: id("The text node's or FAQ's id"),
    type: z
      .enum(["text_node", "faq"])
      .openapi({ description: "text_node: a passage of a file; faq: a question and answer", example: "text_node" }),
    text: z
      .string()
      .openapi({ description: "The text node's own text, or the FAQ's answer", example: "We open at 9." }),
    knowledgeBase: z
      .object({
        id: id("Knowledge base id"),
        name: z.string().openapi({ description: "The knowledge base's name", example: "Help centre" }),
      })
      .openapi({ description: "Its knowledge base" }),
    knowledgeBaseFile: z
      .object({
        id: id("File id"),
        filename: z.string().openapi({ description: "The file's name", example: "hours.pdf" }),
      })
      .nullable()
      .openapi({ description: "Its file (null for an FAQ)" }),
    chatbotFile: z.string().nullable().openapi({ description: "Its file's id (null for an FAQ)", example: null }),
    filename: z.string().nullable().openapi({ description: "Its file's name (null for an FAQ)", example: "hours.pdf" }),
    pageNumber: page("First page (as pageStart)"),
    pageStart: page("First page of the passage, when the file has pages"),
    pageEnd: page("Last page of the passage"),
    startCharIdx: z.number().int().nullable().openapi({ description: "Start in the file's text", example: 120 }),
    endCharIdx: z.number().int().nullable().openapi({ description: "End in the file's text", example: 480 }),
    faq: z
      .object({
        id: id("FAQ id"),
        question: z.string().openapi({ description: "The FAQ's question", example: "When do you open?" }),
        answer: z.string().openapi({ description: "The FAQ's answer", example: "At 9." }),
      })
      .nullable()
      .openapi({ description: "The FAQ (null for a text node)" }),
  })
  .openapi("CitedPassage", { description: "The retrieved passage: a text node of a file, or an FAQ" });

/** A passage a reply was given: written only by replies, from their retrieved passages
 * (services/conversation/replies.ts, agent/). */
export const CitationNode = z
  .object({
    node: CitedPassage,
    score: z.number().openapi({ description: "Retrieval score, 0..1", example: 0.82 }),
    displayScore: z.number().int().openapi({ description: "The score as a percentage", example: 82 }),
  })
  .openapi("CitationNode");

/** The message record of CONTRACT section 7, as routes, the conversation object and webhooks give it. */
export const MessageSchema = z
  .object({
    id: z.string().openapi({ description: "The message's id", example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" }),
    conversation: z
      .string()
      .openapi({ description: "Conversation id", example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3e" }),
    sequence: z
      .number()
      .int()
      .openapi({ description: "Position in the conversation, strictly increasing", example: 3 }),
    sender: Sender,
    senderType: z.enum(["chatbot", "user", "contact"]).openapi({
      description: "chatbot: an assistant's reply; user: a member of the organization; contact: the visitor",
      example: "chatbot",
    }),
    type: z.enum(["incoming", "outgoing"]).openapi({
      description:
        "incoming: a message to the assistant (the contact's, or one a member posts as a question); outgoing: a " +
        "reply (the assistant's, or a member's reply to the contact)",
      example: "outgoing",
    }),
    content: z.string().openapi({
      description: "The message's text; an assistant's with its [n] citation markers when they are on",
      example: "Our opening hours are 9 to 5 [1].",
    }),
    contentPayload: obj(
      "Structured content; an agent reply's `toolCalls` are its tool calls (ToolResultEvent's fields)",
      { content: "", items: [] },
    ).nullable(),
    feedback: z.string().nullable().openapi({
      description: "The visitor's rating of an assistant's reply: like or dislike; null: not rated",
      example: null,
    }),
    attachments: z
      .array(obj("Attachment"))
      .openapi({ description: "Files sent with the message, as stored (their records)", example: [] }),
    citations: z.array(obj("Cited file")).openapi({
      description:
        "The files an assistant's reply drew on, each once: `{id, filename, rawUserDefineMetadata}`; with in-line " +
        "markers on, only the files some marker points at",
      example: [],
    }),
    citationNodes: z.array(CitationNode).openapi({
      description: "The passages the reply was given, best first ([n] markers name the n-th)",
      example: [],
    }),
    canvas: obj("The canvas as sent (`POST /messages/`), with the `id` and `createdAt` given when stored", {
      id: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d",
      name: "plan",
      canvasType: { type: "markdown" },
      title: "Trip plan",
      content: "# Day 1",
      createdAt: "1717000000000",
    }).nullable(),
    metadata: obj("Environment data such as time zone", { timeZone: "Europe/Paris" }),
    queryMetadata: obj("Knowledge restriction for this message").nullable(),
    skillIds: z.array(z.string()).openapi({
      description: "Skills the message offered the assistant in agent mode, as sent; [] when none",
      example: [],
    }),
    toolIds: z
      .array(z.string())
      .openapi({ description: "Tools enabled for the message, as sent; [] when none", example: [] }),
    usage: z
      .object({
        promptTokens: z.number().int().openapi({ description: "Tokens of the model's input", example: 412 }),
        completionTokens: z.number().int().openapi({ description: "Tokens of the reply", example: 38 }),
      })
      .nullable()
      .openapi({
        description: "Tokens the model reported for an assistant's reply; null for other messages",
        example: { promptTokens: 412, completionTokens: 38 },
      }),
    private: z.boolean().openapi({
      description:
        "An operator's private note: shown to the team only, never to the visitor, a channel or a message webhook",
      example: false,
    }),
    createdAt: Timestamp,
  })
  .openapi("Message");

export type CitationNodeRecord = z.infer<typeof CitationNode>;
export type MessageRecord = z.infer<typeof MessageSchema>;

export const messageRecord = (m: MessageRow): MessageRecord => ({
  id: m.id,
  conversation: m.conversationId,
  sequence: m.sequence,
  // A reply row built by the conversation object lacks the columns it leaves empty (avatar, feedback): the record has
  // them, null.
  sender: { id: m.senderId, name: m.senderName, avatar: m.senderAvatar ?? null },
  senderType: m.senderType,
  type: m.type,
  content: m.content,
  contentPayload: stored(m.contentPayload) ?? null,
  feedback: m.feedback ?? null,
  attachments: (m.attachments ?? []).map(stored),
  citations: (m.citations ?? []).map(stored),
  citationNodes: (m.citationNodes ?? []) as CitationNodeRecord[],
  canvas: stored(m.canvas) ?? null,
  metadata: stored(m.metadata) ?? {},
  queryMetadata: stored(m.queryMetadata) ?? null,
  skillIds: m.skillIds ?? [],
  toolIds: m.toolIds ?? [],
  // Tokens the model reported for an assistant's reply (null for other messages and models that report none).
  usage:
    m.inputTokens == null && m.outputTokens == null
      ? null
      : { promptTokens: m.inputTokens ?? 0, completionTokens: m.outputTokens ?? 0 },
  private: m.private ?? false,
  createdAt: ms(m.createdAt)!,
});
