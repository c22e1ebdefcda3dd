import { createRoute, z } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import type { Router } from "../../lib/openapi";
import { errorResponses, jsonBody, uuidParam } from "../../lib/openapi";
import { inboxes } from "../../db/schema";
import { badRequest, fieldError, notFound } from "../../lib/errors";
import { currentAccess, requirePermission } from "../../services/access";
import { getVisibleChatbot } from "../../services/chatbots";
import { conversationInserts, conversationObject, findConversation } from "../../services/conversations";
import { requireContact } from "../../services/contacts";
import { SSE_HEADERS } from "../../services/sse";
import { MessageFields, MessageSchema } from "../messages/schema";
import { QueryMetadataSchema } from "../contacts/schema";
import type { TurnResult } from "../../../durable-objects/conversation";

const Completion = z
  .object({
    conversation: z
      .union([z.uuid(), z.literal(""), z.null()])
      .optional()
      .openapi({ description: "Conversation to continue; absent, null or empty starts one in the assistant's default inbox", example: "" }),
    message: z.object({
      ...MessageFields,
      content: MessageFields.content.min(1, "Required"),
      queryMetadata: QueryMetadataSchema.optional(),
      sender: z.uuid().optional().openapi({ description: "A contact of your organization (else 400)", example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" }),
    }),
    isStreaming: z.boolean().default(false).openapi({ description: "Stream the reply as server-sent events (`is_streaming` works too)", example: false }),
    waitForAttachments: z.boolean().default(true).openapi({ description: "Wait for attachment processing first (v1)", example: true }),
  })
  .openapi("CompletionRequest");

const Reply = z
  .object({
    conversationId: z.string().openapi({ example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" }),
    content: z.string().openapi({ description: "The assistant's answer (empty while the conversation is with a human)", example: "We open at 9." }),
    message: MessageSchema.nullable(),
  })
  .openapi("CompletionReply");

const route = createRoute({
  method: "post",
  path: "/chatbots/{chatbotId}/completions/",
  tags: ["Conversations"],
  summary: "Talk to an assistant: the reply directly, or streamed",
  description:
    "Requires `conversation.manage` and access to the assistant. Streaming (`isStreaming`): `text/event-stream` of " +
    '`data: {"conversationId","messageId","content":"<delta>","done":false}`, ending with `done: true` and the stored `message`; ' +
    "failures after the stream started are `event: error` with `{detail, code}`; a `: ping` comment every 10 s.",
  request: { params: z.object({ chatbotId: uuidParam("chatbotId", "Assistant id") }), ...jsonBody(Completion) },
  responses: {
    200: {
      description: "The reply, or an event stream when streaming",
      content: { "application/json": { schema: Reply }, "text/event-stream": { schema: z.string().openapi({ example: 'data: {"content":"We","done":false}' }) } },
    },
    ...errorResponses(400, 403, 404),
  },
});

export const registerCompletion = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await currentAccess(c);
    requirePermission(access, "conversation.manage");
    const db = c.var.db;
    const chatbot = await getVisibleChatbot(db, access, c.var.principal.userId, c.req.valid("param").chatbotId);
    if (!chatbot) throw notFound("Assistant not found.");
    const { conversation: requested, message, isStreaming } = c.req.valid("json");
    const { sender, ...fields } = message;
    const contact = sender ? await requireContact(db, access.organizationId, sender, "message.sender") : null;

    let conversationId = requested || null;
    let contactOfConversation = contact;
    if (conversationId) {
      const view = await findConversation(db, access.organizationId, conversationId);
      if (!view) throw notFound("Conversation not found.");
      if (view.conversation.chatbotId !== chatbot.id) throw fieldError("conversation", "The conversation belongs to another assistant.");
      if (!contactOfConversation && view.contact?.id) contactOfConversation = { ...view.contact } as typeof contact;
    } else {
      const [inbox] = await db.select({ id: inboxes.id }).from(inboxes).where(and(eq(inboxes.chatbotId, chatbot.id), eq(inboxes.isDefault, true)));
      if (!inbox) throw badRequest("The assistant has no default inbox for API conversations.");
      const created = conversationInserts(db, { organizationId: access.organizationId, inboxId: inbox.id, chatbotId: chatbot.id, contactId: contact?.id ?? null });
      await db.batch(created.statements);
      conversationId = created.id;
    }

    const turn = {
      conversationId,
      sender: { type: "contact" as const, id: contactOfConversation?.id ?? null, name: contactOfConversation?.name ?? "Visitor", avatar: contactOfConversation?.avatar ?? null },
      message: fields,
    };
    const object = conversationObject(c.env, conversationId);
    if (isStreaming) return c.body(await object.stream(turn), 200, SSE_HEADERS);
    // RPC types flatten records of `unknown`; the object returns exactly TurnResult.
    const { reply } = (await object.converse(turn)) as unknown as TurnResult;
    return c.json({ conversationId, content: reply?.content ?? "", message: reply }, 200);
  });
