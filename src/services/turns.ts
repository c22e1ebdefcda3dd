import { batch } from "../db/prepared";
import type { Bindings, Db } from "../env";
import { ApiError, type ErrorCode } from "../lib/errors";
import { uuidv7 } from "../lib/ids";
import type { AssistantForReply } from "./chatbots";
import { afterMessage, incomingFields, laterThan, messageRow, messageWrites, newConversationWrites, replyFields, type ConversationRow, type MessageRow, type NewMessage, type SenderInput } from "./conversations";
import { enqueueEvaluations } from "./evaluation/records";
import { modelApiError } from "./llm/errors";
import type { QueryMetadata } from "./query-scope";
import { messageRecord, type MessageRecord } from "./records/messages";
import { generateReply } from "./replies";
import { recordFailedReply } from "./statistics/failures";
import { createdDeliveries, deliveryOutbox, enqueueDeliveries } from "./webhooks/emit";
import { conversationEvent, messageEvent, publishInboxEvents, type InboxEvent } from "./inbox-events";

export interface TurnResult {
  incoming: MessageRecord;
  reply: MessageRecord | null;
  /** The conversation as the turn left it (but `updatedAt`), for its caller's next turn to start from. */
  conversation?: ConversationRow;
  /** Why there is no reply when the assistant failed (the visitor's message stays stored). */
  error?: TurnError;
}

export interface TurnError {
  status: number;
  code: ErrorCode;
  detail: string;
}

/** A failed turn as its caller reports it: the API error a provider failure maps to, else a logged 500. */
export function turnError(err: unknown, requestId?: string): TurnError {
  const mapped = modelApiError(err);
  if (mapped instanceof ApiError) {
    // The provider's failure, told to the client; this line lets its request id be traced.
    console.warn(JSON.stringify({ level: "warn", message: "reply failed", requestId, code: mapped.code, detail: mapped.detail }));
    return { status: mapped.status, code: mapped.code, detail: mapped.detail };
  }
  console.error(JSON.stringify({ level: "error", message: "reply failed", requestId, error: String(err), stack: (err as Error)?.stack }));
  return { status: 500, code: "server_error", detail: "The reply failed." };
}

export interface FirstTurn {
  /** The conversation this turn creates (see newConversation). */
  conversation: ConversationRow;
  assistant: Omit<AssistantForReply, "defaultInboxId">;
  sender: SenderInput & { type: "contact" };
  message: Partial<NewMessage>;
  contactQueryMetadata: QueryMetadata | null;
  /** The request's id, for the failure's log line. */
  requestId?: string;
}

/**
 * Whether a new conversation's first turn may be answered without its Durable Object
 * (answerFirstTurn; streamFirstTurn in services/streamed-turns.ts): a reply that only reads. Agent and workflow replies write records that point
 * at the stored message, and attachments are read from the stored conversation, so those turns go
 * through the object as every other turn does.
 */
export const answersWithoutObject = (chatbot: AssistantForReply["chatbot"], message: Partial<NewMessage>) =>
  chatbot.replyMode !== "agent" && chatbot.replyMode !== "workflow" && !message.attachments?.length;

/**
 * A new conversation's first turn, answered directly (not streamed), run here rather than in the
 * conversation's object (docs/decisions.md, "Conversations and the Durable Object"). No one can
 * know the conversation before this response names it, so no other write can come between; the
 * object of a later turn reads it from D1. The conversation, the visitor's message, the reply and
 * their webhook deliveries are stored in one batch once the reply is complete; when the reply
 * fails, the conversation and the visitor's message are, then the failure's record.
 */
export async function answerFirstTurn(env: Bindings, db: Db, waitUntil: (p: Promise<unknown>) => void, turn: FirstTurn): Promise<TurnResult> {
  const { conversation, assistant } = turn;
  const { chatbot } = assistant;
  const incoming = messageRow({ ...incomingFields(turn.sender, turn.message), id: uuidv7(), organizationId: conversation.organizationId, conversationId: conversation.id, sequence: 1 }) as MessageRow;
  const replyId = uuidv7();
  let reply: MessageRow;
  try {
    const answer = await generateReply(env, db, { ...assistant, history: [], incoming, conversation, contactQueryMetadata: turn.contactQueryMetadata }, () => undefined, { replyId, whole: true });
    reply = messageRow({ ...replyFields(chatbot, assistant.model?.id ?? null, replyId, answer), organizationId: conversation.organizationId, conversationId: conversation.id, sequence: 2, createdAt: laterThan(incoming.createdAt) }) as MessageRow;
  } catch (err) {
    const error = turnError(err, turn.requestId);
    await storeTurn(env, db, waitUntil, conversation, [incoming]);
    await recordFailedReply(db, conversation, incoming, err); // statistics
    return { incoming: messageRecord(incoming), reply: null, error };
  }
  await storeTurn(env, db, waitUntil, conversation, [incoming, reply]);
  if (chatbot.enableEvaluation) waitUntil(enqueueEvaluations(env, [incoming.id]).catch(() => undefined)); // scored in the background
  return { incoming: messageRecord(incoming), reply: messageRecord(reply) };
}

/**
 * Stores messages of a conversation created by a first turn run here, with their webhook deliveries,
 * in one batch, then hands the deliveries to the queue and tells the live inbox. `stored`: this
 * conversation's messages already stored (none: the conversation is stored with `rows`).
 */
export async function storeTurn(env: Bindings, db: Db, waitUntil: (p: Promise<unknown>) => void, conversation: ConversationRow, rows: MessageRow[], stored: MessageRow[] = []) {
  const creates = !stored.length;
  const writes = creates ? newConversationWrites(db, conversation, rows) : [];
  // The live inbox, as the conversation object tells it (published once stored, never waited for).
  const events: InboxEvent[] = creates ? [conversationEvent("conversation.created", conversation)] : [];
  let state = stored.reduce(afterMessage, conversation);
  for (const row of rows) {
    if (!creates) writes.push(...messageWrites(db, state, row));
    state = afterMessage(state, row);
    events.push(messageEvent(state, messageRecord(row)));
  }
  const results = await batch(db, [...writes, ...rows.map((row) => deliveryOutbox(db, conversation, row))]);
  const deliveryIds = results.slice(-rows.length).flatMap(createdDeliveries);
  if (deliveryIds.length) waitUntil(enqueueDeliveries(env, deliveryIds).catch((err) => console.error(String(err))));
  waitUntil(publishInboxEvents(env, conversation.organizationId, ...events));
}
