import { z } from "@hono/zod-openapi";
import { Timestamp } from "../../lib/openapi";
import { QueryMetadataSchema } from "../contacts/schema";

const obj = (description: string, example: Record<string, unknown> = {}) =>
  z.record(z.string(), z.unknown()).openapi({ description, example });

export const Sender = z
  .object({
    id: z.string().nullable().openapi({ example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" }),
    name: z.string().openapi({ example: "Support bot" }),
    avatar: z.string().nullable().openapi({ example: null }),
  })
  .openapi("MessageSender");

const id = (description: string) =>
  z.string().openapi({ description, example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" });
const page = (description: string) => z.number().int().nullable().openapi({ description, example: 2 });

/** A passage a reply was given (services/knowledge/retrieval: the node of each retrieved passage). */
export const CitedPassage = z
  .object({
    id: id("The text node's or FAQ's id"),
    type: z.enum(["text_node", "faq"]).openapi({ example: "text_node" }),
    text: z
      .string()
      .openapi({ description: "The text node's own text, or the FAQ's answer", example: "We open at 9." }),
    knowledgeBase: z
      .object({ id: id("Knowledge base id"), name: z.string().openapi({ example: "Help centre" }) })
      .openapi({ description: "Its knowledge base" }),
    knowledgeBaseFile: z
      .object({ id: id("File id"), filename: z.string().openapi({ example: "hours.pdf" }) })
      .nullable()
      .openapi({ description: "Its file (null for an FAQ)" }),
    chatbotFile: z.string().nullable().openapi({ description: "Its file's id (null for an FAQ)", example: null }),
    filename: z.string().nullable().openapi({ example: "hours.pdf" }),
    pageNumber: page("First page (as pageStart)"),
    pageStart: page("First page of the passage, when the file has pages"),
    pageEnd: page("Last page of the passage"),
    startCharIdx: z.number().int().nullable().openapi({ description: "Start in the file's text", example: 120 }),
    endCharIdx: z.number().int().nullable().openapi({ description: "End in the file's text", example: 480 }),
    faq: z
      .object({
        id: id("FAQ id"),
        question: z.string().openapi({ example: "When do you open?" }),
        answer: z.string().openapi({ example: "At 9." }),
      })
      .nullable()
      .openapi({ description: "The FAQ (null for a text node)" }),
  })
  .openapi("CitedPassage");

export const CitationNode = z
  .object({
    node: CitedPassage,
    score: z.number().openapi({ description: "Retrieval score, 0..1", example: 0.82 }),
    displayScore: z.number().int().openapi({ description: "The score as a percentage", example: 82 }),
  })
  .openapi("CitationNode");

export const MessageSchema = z
  .object({
    id: z.string().openapi({ example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" }),
    conversation: z
      .string()
      .openapi({ description: "Conversation id", example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3e" }),
    sequence: z
      .number()
      .int()
      .openapi({ description: "Position in the conversation, strictly increasing", example: 3 }),
    sender: Sender,
    senderType: z.enum(["chatbot", "user", "contact"]).openapi({ example: "chatbot" }),
    type: z.enum(["incoming", "outgoing"]).openapi({ example: "outgoing" }),
    content: z.string().openapi({ example: "Our opening hours are 9 to 5 [1]." }),
    contentPayload: obj(
      "Structured content; an agent reply's `toolCalls` are its tool calls (ToolResultEvent's fields)",
      { content: "", items: [] },
    ).nullable(),
    feedback: z.string().nullable().openapi({ example: null }),
    attachments: z.array(obj("Attachment")).openapi({ example: [] }),
    citations: z.array(obj("Cited file")).openapi({ example: [] }),
    citationNodes: z.array(CitationNode).openapi({
      description: "The passages the reply was given, best first ([n] markers name the n-th)",
      example: [],
    }),
    canvas: obj("Canvas").nullable(),
    metadata: obj("Environment data such as time zone", { timeZone: "Europe/Paris" }),
    queryMetadata: obj("Knowledge restriction for this message").nullable(),
    skillIds: z.array(z.string()).openapi({ example: [] }),
    toolIds: z.array(z.string()).openapi({ example: [] }),
    usage: z
      .object({
        promptTokens: z.number().int().openapi({ example: 412 }),
        completionTokens: z.number().int().openapi({ example: 38 }),
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

const uuid = (description: string) =>
  z.uuid().openapi({ description, example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" });

export const AttachmentInput = z
  .object({
    id: z
      .uuid()
      .optional()
      .openapi({ description: "An uploaded attachment", example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" }),
    type: z.enum(["image", "video", "audio", "sticker", "other"]).optional().openapi({ example: "image" }),
    filename: z.string().min(1).max(255).openapi({ example: "photo.png" }),
    file: z.string().trim().min(1).max(2048).openapi({
      description:
        "The key of an upload (`fields.key`), our URL of it, or an external link (kept as a reference, never fetched)",
      example: "https://cdn.example.com/photo.png",
    }),
    conversation: z.uuid().optional().openapi({ example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" }),
  })
  .openapi("AttachmentInput");

export const CanvasInput = z
  .object({
    name: z.string().openapi({ example: "plan" }),
    title: z.string().openapi({ example: "Trip plan" }),
    content: z.string().openapi({ example: "# Day 1" }),
    canvasType: z.record(z.string(), z.unknown()).openapi({ example: { type: "markdown" } }),
  })
  .openapi("CanvasInput");

/** The message fields shared by `POST /messages/`, agent replies and completions. */
export const MessageFields = {
  content: z.string().max(32_000, "At most 32,000 characters").openapi({ example: "What are your opening hours?" }),
  contentPayload: z
    .record(z.string(), z.unknown())
    .optional()
    .openapi({ example: { content: "What are your opening hours?" } }),
  attachments: z.array(AttachmentInput).max(20).optional(),
  metadata: z
    .record(z.string(), z.unknown())
    .optional()
    .openapi({ description: "Environment data (v1)", example: { timeZone: "Europe/Paris" } }),
  toolIds: z
    .array(z.uuid())
    .max(50)
    .optional()
    .openapi({ description: "Tools enabled for this message (v1)", example: [] }),
  skillIds: z.array(z.uuid()).max(50).optional().openapi({
    description: "Skills offered for this message in agent mode: only these of the assistant's (v1)",
    example: [],
  }),
};

export const MessageCreate = z
  .object({
    conversation: uuid("Conversation to post in"),
    type: z
      .literal("incoming")
      .optional()
      .openapi({ description: "Visitor messages only; agents use `messages/outgoing/`", example: "incoming" }),
    ...MessageFields,
    canvas: CanvasInput.optional(),
    queryMetadata: QueryMetadataSchema.optional(),
    broadcast: z.boolean().optional().openapi({ example: false }),
    skipCopilotTrigger: z.boolean().optional().openapi({ example: false }),
    suggestedForId: z.uuid().optional().openapi({ example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" }),
    sender: z.uuid().optional().openapi({
      description: "A contact of your organization; defaults to the conversation's contact",
      example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d",
    }),
  })
  .openapi("MessageCreate");
