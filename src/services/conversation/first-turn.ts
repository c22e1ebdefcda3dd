import { batch } from "../../db/prepared";
import type { Bindings, Db } from "../../env";
import { uuidv7 } from "../../lib/ids";
import type { AssistantForReply } from "../chatbots/for-reply";
import { afterMessage, incomingFields, laterThan, messageRow, messageWrites, newConversationWrites, replyFields, type ConversationRow, type MessageRow, type NewMessage, type SenderInput } from "../conversations";
import type { QueryMetadata } from "../query-scope";
import { messageRecord } from "../records/messages";
import { generateReply } from "./replies";
import { turnError, type TurnResult } from "./turn-result";
import { effectStatements, runReplied, runReplyFailed, runStored } from "./effects";

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
 * (answerFirstTurn; streamFirstTurn in services/conversation/streamed-first-turn.ts): a reply that only reads. Agent and workflow replies write records that point
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
  const end = { env, db, waitUntil, conversation, chatbot, incoming };
  let reply: MessageRow;
  try {
    const answer = await generateReply(env, db, { ...assistant, history: [], incoming, conversation, contactQueryMetadata: turn.contactQueryMetadata }, () => undefined, { replyId, whole: true });
    reply = messageRow({ ...replyFields(chatbot, assistant.model?.id ?? null, replyId, answer), organizationId: conversation.organizationId, conversationId: conversation.id, sequence: 2, createdAt: laterThan(incoming.createdAt) }) as MessageRow;
  } catch (err) {
    const error = turnError(err, turn.requestId);
    await storeTurn(env, db, waitUntil, conversation, [incoming]);
    await runReplyFailed(end, err);
    return { incoming: messageRecord(incoming), reply: null, error };
  }
  await storeTurn(env, db, waitUntil, conversation, [incoming, reply]);
  runReplied(end, reply);
  return { incoming: messageRecord(incoming), reply: messageRecord(reply) };
}

/**
 * Stores messages of a conversation created by a first turn run here, with what their effects store
 * beside them (the webhook outbox), in one batch, then runs the effects (effects.ts). `stored`: this
 * conversation's messages already stored (none: the conversation is stored with `rows`).
 */
export async function storeTurn(env: Bindings, db: Db, waitUntil: (p: Promise<unknown>) => void, conversation: ConversationRow, rows: MessageRow[], stored: MessageRow[] = []) {
  const creates = !stored.length;
  const writes = creates ? newConversationWrites(db, conversation, rows) : [];
  let state = stored.reduce(afterMessage, conversation);
  const entries = rows.map((row) => {
    if (!creates) writes.push(...messageWrites(db, state, row));
    state = afterMessage(state, row);
    return { row, state, effects: effectStatements(db, conversation, row) };
  });
  const results = await batch(db, [...writes, ...entries.flatMap((e) => e.effects.statements)]);
  let at = writes.length;
  const messages = entries.map(({ row, state, effects }) => {
    const own = effects.resultsFrom(results, at);
    at += effects.statements.length;
    return { message: row, record: messageRecord(row), conversation: state, results: own };
  });
  runStored({ env, waitUntil, organizationId: conversation.organizationId, created: creates ? conversation : null }, messages);
}
