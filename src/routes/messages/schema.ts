import { z } from "@hono/zod-openapi";
import { AttachmentInput } from "../../services/records/attachments";
import { QueryMetadataSchema } from "../../services/records/query-metadata";

const uuid = (description: string) =>
  z.uuid().openapi({ description, example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" });

export const CanvasInput = z
  .object({
    name: z.string().openapi({ description: "The canvas's name", example: "plan" }),
    title: z.string().openapi({ description: "Its title, shown above it", example: "Trip plan" }),
    content: z.string().openapi({ description: "Its text (Markdown for a markdown canvas)", example: "# Day 1" }),
    canvasType: z
      .record(z.string(), z.unknown())
      .openapi({ description: "What kind of canvas it is", example: { type: "markdown" } }),
  })
  .openapi("CanvasInput", { description: "A canvas kept with the message, returned as sent with its `id`" });

/** The message fields shared by `POST /messages/`, agent replies and completions. */
export const MessageFields = {
  content: z
    .string()
    .max(32_000, "At most 32,000 characters")
    .openapi({ description: "The message's text, at most 32,000 characters", example: "What are your opening hours?" }),
  contentPayload: z
    .record(z.string(), z.unknown())
    .optional()
    .openapi({
      description: "Structured content kept with the message and returned as sent",
      example: { content: "What are your opening hours?" },
    }),
  attachments: z
    .array(AttachmentInput)
    .max(20)
    .optional()
    .openapi({
      description:
        "Files sent with the message (at most 20): an attachment by `id`, or `{filename, file}` for an upload's key " +
        "or a link",
      example: [],
    }),
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

/**
 * A posted message's text: optional beside attachments (the spec marks only `conversation` required), but a message
 * with neither (white space alone is no text: it would show as an empty bubble) is refused by `textOrAttachments`, as
 * the widget refuses it.
 */
export const PostedContent = MessageFields.content
  .default("")
  .openapi({ description: "The text; required unless attachments are sent", example: "What are your opening hours?" });

export function textOrAttachments(body: { content: string; attachments?: unknown[] }, ctx: z.RefinementCtx) {
  if (!/\S/.test(body.content) && !body.attachments?.length)
    ctx.addIssue({ code: "custom", path: ["content"], message: "Required without attachments" });
}

export const MessageCreate = z
  .object({
    conversation: uuid("Conversation to post in"),
    type: z
      .literal("incoming")
      .optional()
      .openapi({ description: "Visitor messages only; agents use `messages/outgoing/`", example: "incoming" }),
    ...MessageFields,
    content: PostedContent,
    canvas: CanvasInput.optional(),
    queryMetadata: QueryMetadataSchema.optional(),
    broadcast: z
      .boolean()
      .optional()
      .openapi({ description: "Accepted for clients that send it; it changes nothing here", example: false }),
    skipCopilotTrigger: z
      .boolean()
      .optional()
      .openapi({ description: "Accepted for clients that send it; it changes nothing here", example: false }),
    suggestedForId: z.uuid().optional().openapi({
      description: "Accepted for clients that send it; it changes nothing here",
      example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d",
    }),
    sender: z.uuid().optional().openapi({
      description: "A contact of your organization; defaults to the conversation's contact",
      example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d",
    }),
  })
  .superRefine(textOrAttachments)
  .openapi("MessageCreate");
