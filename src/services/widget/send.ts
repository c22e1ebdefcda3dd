// A visitor's message (`POST /web-chats/{id}/public/messages/`): taken by the conversation's object
// like a streamed completion (CONTRACT section 7), in a new conversation when the visitor names none.
import type { z } from "@hono/zod-openapi";
import type { Bindings, Db } from "../../env";
import { unauthenticated } from "../../lib/errors";
import { conversationObject, newConversation, newConversationId, type ConversationRow } from "../conversations";
import type { QueryMetadata } from "../knowledge/query-scope";
import type { AttachmentRow } from "../records/attachments";
import type { SendBody } from "../records/widget";
import { assistantRefusal } from "../assistant-refusal";
import { interruptible } from "../sse";
import { widgetEvents } from "./event-ids";
import { forgetAttachments, requireFileUpload, visitorAttachments } from "./uploads";
import { type Visitor, visitorContact, visitorConversation } from "./visitors";
import type { PublicWebChat } from "./web-chats";

/** What the visitor sends, after validation. */
export type VisitorMessage = z.output<typeof SendBody>;

/** The request around the message: where its attachments are served from and how it is logged. */
export interface VisitorRequest {
  /** The send's `Idempotency-Key`, kept in the message's metadata: the visitor's own record shows it back. */
  idempotencyKey: string | undefined;
  origin: string;
  requestId: string;
  waitUntil: (p: Promise<unknown>) => void;
}

/**
 * Sends the visitor's message to its conversation's object (a new conversation when it names none)
 * and returns the reply's events as the widget reads them. Attachments are checked and written
 * before the message, which carries their records, and taken back if the object refuses it.
 */
export async function sendVisitorMessage(
  env: Bindings,
  db: Db,
  data: Db,
  chat: PublicWebChat,
  visitor: Visitor,
  body: VisitorMessage,
  req: VisitorRequest,
): Promise<ReadableStream<Uint8Array>> {
  const files = body.attachments?.length ? body.attachments : undefined;
  if (files) requireFileUpload(chat);
  const { location, ...environment } = body.metadata ?? {};
  const metadata = {
    ...environment,
    ...(location && chat.webChat.settings.enableLocation ? { location } : {}),
    channel: "web_chat",
    ...(req.idempotencyKey ? { idempotencyKey: req.idempotencyKey } : {}),
  };
  const [contact, conversation, refusal] = await Promise.all([
    visitorContact(data, chat, visitor),
    body.conversation ? visitorConversation(env, chat, visitor, body.conversation) : Promise.resolve(undefined),
    assistantRefusal(env, db, chat.webChat.organizationId),
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
    created = newConversation(values, newConversationId(env, req.waitUntil));
  }
  const conversationId = conversation?.id ?? created!.id;
  let written: AttachmentRow[] = [];
  let attachments: Record<string, unknown>[] | undefined;
  if (files)
    ({ stored: attachments, written } = await visitorAttachments(
      env,
      data,
      chat,
      visitor,
      req.origin,
      conversationId,
      files,
    ));
  let stream: ReadableStream<Uint8Array>;
  try {
    stream = await conversationObject(env, conversationId).stream({
      organizationId: contact.organizationId,
      conversationId,
      created,
      conversation,
      assistant: chat.assistant ?? undefined,
      sender: { type: "contact", id: contact.id, name: contact.name, avatar: contact.avatar },
      message: { content: body.content, metadata, ...(attachments ? { attachments } : {}) },
      contactQueryMetadata: (contact.queryMetadata as QueryMetadata | null) ?? null,
      requestId: req.requestId,
      refusal,
    });
  } catch (err) {
    await forgetAttachments(data, written);
    throw err;
  }
  return widgetEvents(interruptible(stream, req.requestId), chat.webChat.settings);
}
