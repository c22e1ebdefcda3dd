import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, IdempotencyHeaders, jsonBody, uuidParam } from "../../lib/openapi";
import { ApiError, badRequest, fieldError, notFound } from "../../lib/errors";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { currentAccess, requirePermission } from "../../services/access";
import { readForReply, rememberTurnConversation } from "../../services/chatbots/for-reply";
import { conversationObject, newConversation, newConversationId, type ConversationRow } from "../../services/conversations";
import { notAContact } from "../../services/contacts";
import { interruptible, SSE_HEADERS } from "../../services/sse";
import { MessageFields, MessageSchema } from "../messages/schema";
import { CompletionStreamEvent } from "./stream-events";
import { QueryMetadataSchema } from "../contacts/schema";
import type { QueryMetadata } from "../../services/query-scope";
import { answerFirstTurn, answersWithoutObject } from "../../services/conversation/first-turn";
import type { TurnResult } from "../../services/conversation/turn-result";
import { streamFirstTurn } from "../../services/conversation/streamed-first-turn";
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { resolveMessageAttachments } from "../../services/uploads/attachments";
import { extractLater } from "../attachments/respond";

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
    "in agent mode `event: tool_call` and `event: tool_result` as tools run; failures after the stream started are `event: error` with `{detail, code}`; " +
    "a `: ping` comment every 10 s. The `text/event-stream` schema gives each event's `data`.",
  request: { params: z.object({ chatbotId: uuidParam("chatbotId", "Assistant id") }), headers: IdempotencyHeaders, ...jsonBody(Completion) },
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
    const access = await currentAccess(c);
    requirePermission(access, "conversation.manage");
    const db = c.var.db;
    const { chatbotId } = c.req.valid("param");
    const { conversation: requested, message, isStreaming, waitForAttachments } = c.req.valid("json");
    const { sender, ...fields } = message;
    // At most one D1 round trip reads all the object needs to ask the model; none for a new
    // conversation whose assistant is remembered (readForReply).
    const found = await readForReply(db, access, c.var.principal.userId, chatbotId, { conversationId: requested || undefined, contactId: sender });
    if (!found) throw notFound("Assistant not found.");
    const { chatbot, model, defaultInboxId, knowledgeBases, conversation, contact } = found;
    if (sender && !contact) throw notAContact("message.sender");

    const from = { type: "contact" as const, id: contact?.id ?? null, name: contact?.name ?? "Visitor", avatar: contact?.avatar ?? null };
    const waitUntil = (p: Promise<unknown>) => c.executionCtx.waitUntil(p);
    let created: ConversationRow | undefined;
    if (requested) {
      if (!conversation) throw notFound("Conversation not found.");
      if (conversation.chatbotId !== chatbot.id) throw fieldError("conversation", "The conversation belongs to another assistant.");
    } else {
      if (!defaultInboxId) throw badRequest("The assistant has no default inbox for API conversations.");
      const values = { organizationId: access.organizationId, inboxId: defaultInboxId, chatbotId: chatbot.id, contactId: contact?.id ?? null, createdById: c.var.principal.userId };
      if (answersWithoutObject(chatbot, fields)) {
        // Answered here, without going through the conversation's object (services/conversation/first-turn.ts, services/conversation/streamed-first-turn.ts).
        const turn = { conversation: newConversation(values), assistant: { chatbot, model, knowledgeBases }, sender: from, message: fields, contactQueryMetadata: (contact?.queryMetadata as QueryMetadata | null) ?? null, requestId: c.var.requestId };
        if (isStreaming) return c.body(await streamFirstTurn(c.env, db, waitUntil, turn), 200, SSE_HEADERS);
        return replied(c, await answerFirstTurn(c.env, db, waitUntil, turn), turn.conversation.id);
      }
      // Stored by the conversation's object together with its first message.
      created = newConversation(values, newConversationId(c.env, waitUntil));
    }
    const conversationId = requested || created!.id;
    const object = conversationObject(c.env, conversationId);
    let unread: Awaited<ReturnType<typeof resolveMessageAttachments>>["pending"] = [];
    if (fields.attachments?.length) {
      const scope = { organizationId: access.organizationId, userId: c.var.principal.userId, origin: new URL(c.req.url).origin };
      const { stored, pending } = await resolveMessageAttachments(c.env, db, scope, conversationId, fields.attachments, "message.attachments");
      fields.attachments = stored as typeof fields.attachments;
      // Waiting, the reply reads them itself; not waiting, they are read after it, for later turns.
      if (!waitForAttachments) unread = pending;
    }

    const turn = {
      conversationId,
      created,
      conversation: conversation ?? undefined,
      assistant: { chatbot, model, knowledgeBases },
      sender: from,
      message: fields,
      // The conversation's contact: the sender of a new conversation, else its own when none is named.
      contactQueryMetadata: created || !sender ? ((contact?.queryMetadata as QueryMetadata | null) ?? null) : undefined,
      waitForAttachments,
      requestId: c.var.requestId,
    };
    if (isStreaming) {
      const body = await object.stream(turn);
      extractLater(c, unread);
      return c.body(interruptible(body, c.var.requestId), 200, SSE_HEADERS);
    }
    const result: TurnResult = await object.converse(turn);
    if (requested && result.conversation) rememberTurnConversation(access.organizationId, { conversationId: requested, contactId: sender }, result.conversation);
    extractLater(c, unread);
    return replied(c, result, conversationId);
  });

/** The answer of a direct (not streamed) completion, or the failure its turn reported. */
function replied(c: Context<AppEnv>, { reply, error }: TurnResult, conversationId: string) {
  if (error) throw new ApiError(error.status as ContentfulStatusCode, error.code, error.detail);
  return c.json({ conversationId, content: reply?.content ?? "", message: reply }, 200);
}
