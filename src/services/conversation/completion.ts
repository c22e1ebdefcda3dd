// A completion (`POST /chatbots/{id}/completions/`): which store its turn goes to (turn.ts). A new
// conversation's first turn is answered in the worker when it only reads (first-turn.ts); every
// other turn goes to the conversation's object, with what this request read so the object reads
// nothing again (docs/architecture.md, "The hot path").
import type { Bindings, Db } from "../../env";
import { badRequest, fieldError, notFound } from "../../lib/errors";
import type { OrgAccess } from "../access";
import { readForReply, rememberTurnConversation } from "../chatbots/for-reply";
import { notAContact } from "../contacts";
import {
  conversationObject,
  newConversation,
  newConversationId,
  type ConversationRow,
  type NewMessage,
} from "../conversations";
import type { QueryMetadata } from "../knowledge/query-scope";
import { interruptible } from "../sse";
import { resolveMessageAttachments, type MessageAttachmentInput } from "../uploads/attachments";
import { extractLater } from "../uploads/reading";
import { conversationDb } from "../shards/parts";
import { requireAssistantAnswers } from "../assistant-refusal";
import { answerFirstTurn, answersWithoutObject, streamFirstTurn } from "./first-turn";
import type { TurnResult } from "./turn-result";

export interface CompletionRequest {
  access: OrgAccess;
  userId: string;
  requestId: string;
  /** The API's origin, for attachments named by URL. */
  origin: string;
  chatbotId: string;
  /** The conversation to continue; none starts one in the assistant's default inbox. */
  conversationId?: string;
  /** A contact of the organization sending the message. */
  sender?: string;
  message: Omit<Partial<NewMessage>, "attachments"> & { attachments?: MessageAttachmentInput[] };
  isStreaming: boolean;
  waitForAttachments: boolean;
  /** A new conversation is a test (the console's try-it): apart in the inbox and statistics. */
  isTest?: boolean;
}

/** The turn's reply, or its stream (CONTRACT section 7). */
export type Completion = { conversationId: string } & ({ stream: ReadableStream<Uint8Array> } | { result: TurnResult });

export async function complete(
  env: Bindings,
  db: Db,
  /** The organization's data plane (`access`'s). */
  data: Db,
  waitUntil: (p: Promise<unknown>) => void,
  req: CompletionRequest,
): Promise<Completion> {
  const { access, conversationId: requested, sender } = req;
  const message = req.message as Partial<NewMessage>;
  // At most one D1 round trip reads all the object needs to ask the model; none for a new
  // conversation whose assistant is remembered (readForReply).
  const [found] = await Promise.all([
    readForReply(
      db,
      access,
      req.userId,
      req.chatbotId,
      { conversationId: requested, contactId: sender },
      data,
      requested ? await conversationDb(env, access.organizationId, requested) : data,
    ),
    // A completion asks for the assistant's answer: refused before anything is stored once the plan's words are used
    // or the plan lapsed.
    requireAssistantAnswers(env, db, access.organizationId),
  ]);
  if (!found) throw notFound("Assistant not found.");
  const { chatbot, model, defaultInboxId, knowledgeBases, conversation, contact } = found;
  if (sender && !contact) throw notAContact("message.sender");
  const assistant = { chatbot, model, knowledgeBases };
  const from = {
    type: "contact" as const,
    id: contact?.id ?? null,
    name: contact?.name ?? "Visitor",
    avatar: contact?.avatar ?? null,
  };
  const contactQueryMetadata = (contact?.queryMetadata as QueryMetadata | null) ?? null;

  let created: ConversationRow | undefined;
  if (requested) {
    if (!conversation) throw notFound("Conversation not found.");
    if (conversation.chatbotId !== chatbot.id)
      throw fieldError("conversation", "The conversation belongs to another assistant.");
  } else {
    if (!defaultInboxId) throw badRequest("The assistant has no default inbox for API conversations.");
    const values = {
      organizationId: access.organizationId,
      inboxId: defaultInboxId,
      chatbotId: chatbot.id,
      contactId: contact?.id ?? null,
      createdById: req.userId,
      isTest: req.isTest ?? false,
    };
    if (answersWithoutObject(chatbot, message, !!req.isStreaming)) {
      const turn = {
        conversation: newConversation(values),
        assistant,
        sender: from,
        message,
        contactQueryMetadata,
        requestId: req.requestId,
      };
      const conversationId = turn.conversation.id;
      const part = await conversationDb(env, access.organizationId, conversationId);
      if (req.isStreaming) return { conversationId, stream: await streamFirstTurn(env, db, part, waitUntil, turn) };
      return { conversationId, result: await answerFirstTurn(env, db, part, waitUntil, turn) };
    }
    // Stored by the conversation's object together with its first message.
    created = newConversation(values, newConversationId(env, waitUntil));
  }

  const conversationId = requested || created!.id;
  let unread: Awaited<ReturnType<typeof resolveMessageAttachments>>["pending"] = [];
  if (message.attachments?.length) {
    const scope = { organizationId: access.organizationId, userId: req.userId, origin: req.origin };
    const { stored, pending } = await resolveMessageAttachments(
      env,
      data,
      scope,
      conversationId,
      req.message.attachments,
      "message.attachments",
    );
    message.attachments = stored;
    // Waiting, the reply reads them itself; not waiting, they are read after it, for later turns.
    if (!req.waitForAttachments) unread = pending;
  }
  const readLater = () => extractLater(env, data, waitUntil, unread);

  const object = conversationObject(env, conversationId);
  const turn = {
    organizationId: access.organizationId,
    conversationId,
    created,
    conversation: conversation ?? undefined,
    assistant,
    sender: from,
    message,
    // The conversation's contact: the sender of a new conversation, else its own when none is named.
    contactQueryMetadata: created || !sender ? contactQueryMetadata : undefined,
    waitForAttachments: req.waitForAttachments,
    requestId: req.requestId,
  };
  if (req.isStreaming) {
    const body = await object.stream(turn);
    readLater();
    return { conversationId, stream: interruptible(body, req.requestId) };
  }
  const result = await object.converse(turn);
  // This caller's next turn starts from the row the turn left (see `turns` in chatbots/for-reply.ts).
  if (requested && result.conversation)
    rememberTurnConversation(
      access.organizationId,
      { conversationId: requested, contactId: sender },
      result.conversation,
    );
  readLater();
  return { conversationId, result };
}
