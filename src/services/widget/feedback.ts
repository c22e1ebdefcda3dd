// A visitor's like or dislike of an answer; a second dislike since the assistant last handed off
// makes it hand the conversation to a person (CONTRACT section 18; docs/decisions.md, "Handoff to a person").
import { and, count, eq, gt, type SQL, sql } from "drizzle-orm";
import { batch, rowMapper, sqlStatement } from "../../db/prepared";
import { conversations, messages } from "../../db/schema";
import type { Bindings, Db } from "../../env";
import { notFound } from "../../lib/errors";
import { conversationObject, type ConversationRow, type MessageRow } from "../conversations";
import { DISLIKES_TO_HAND_OFF } from "../conversation/handoff";
import { feedbackFigureWrites } from "../statistics/message-figures";
import type { PublicWebChat } from "./web-chats";
import type { Visitor } from "./visitors";

export async function rateAnswer(
  env: Bindings,
  db: Db,
  waitUntil: (p: Promise<unknown>) => void,
  chat: PublicWebChat,
  visitor: Visitor,
  messageId: string,
  feedback: "like" | "dislike" | null,
): Promise<MessageRow> {
  // The message must be an answer in one of the visitor's conversations.
  const mine = and(eq(conversations.inboxId, chat.inboxId), eq(conversations.contactId, visitor.contactId));
  const found = await ratedAnswer(db, messageId, mine);
  // Written by the conversation's object, which keeps a copy of its messages (durable-objects/conversation-store.ts).
  const row =
    found.message.feedback === feedback
      ? found.message
      : await conversationObject(env, found.message.conversationId).rate(found, feedback);
  if (!row) throw notFound("Message not found.");
  if (feedback === "dislike" && (await dislikesSinceHandoff(db, row.conversationId)) >= DISLIKES_TO_HAND_OFF) {
    // Said by the conversation's object, in order with its messages; the visitor sees it on their live stream.
    waitUntil(conversationObject(env, row.conversationId).handOff(row.conversationId, "dislikes"));
  }
  return row;
}

const setRating = "UPDATE messages SET feedback = ?1 WHERE id = ?2 AND feedback IS ?3 RETURNING *";
const messageOf = rowMapper(messages);

/** An assistant's answer and what of its conversation a rating's statistics need (see ratedAnswer). */
export interface RatedAnswer {
  message: MessageRow;
  conversation: Pick<ConversationRow, "id" | "organizationId" | "chatbotId" | "contactId" | "createdById" | "isTest">;
}

/** The assistant's answer `messageId`, in a conversation `of` the rater's (not found otherwise). */
export async function ratedAnswer(db: Db, messageId: string, of: SQL | undefined): Promise<RatedAnswer> {
  const [found] = await db
    .select({
      message: messages,
      conversation: {
        id: conversations.id,
        organizationId: conversations.organizationId,
        chatbotId: conversations.chatbotId,
        contactId: conversations.contactId,
        createdById: conversations.createdById,
        isTest: conversations.isTest,
      },
    })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .where(and(eq(messages.id, messageId), eq(messages.senderType, "chatbot"), of));
  if (!found) throw notFound("Message not found.");
  return found;
}

/**
 * An assistant's answer rated, in a conversation `of` the rater's (not found otherwise), with what the
 * rating changes in the statistics (statistics/message-figures.ts) in the same batch: both only while
 * the answer still has the rating read here, so a rating stored in between (the visitor's other tab)
 * is read again rather than counted twice. `found`: the answer as the caller read it (spares the first read).
 */
export async function storeRating(
  db: Db,
  messageId: string,
  feedback: "like" | "dislike" | null,
  of: SQL | undefined,
  found?: RatedAnswer,
): Promise<MessageRow> {
  for (let read = found; ; read = undefined) {
    const { message, conversation } = read ?? (await ratedAnswer(db, messageId, of));
    if (message.feedback === feedback) return message;
    const results = await batch(db, [
      ...feedbackFigureWrites(db, conversation, message, message.feedback, feedback),
      sqlStatement(db, setRating).bind(feedback, message.id, message.feedback),
    ]);
    const [stored] = results[results.length - 1].results;
    if (stored) return messageOf(stored);
  }
}

async function dislikesSinceHandoff(db: Db, conversationId: string): Promise<number> {
  const lastHandoff = sql`coalesce((select max(${messages.sequence}) from ${messages}
    where ${messages.conversationId} = ${conversationId} and ${messages.senderType} = 'chatbot'
      and json_extract(${messages.contentPayload}, '$.handoff') is not null), 0)`;
  const [{ n }] = await db
    .select({ n: count() })
    .from(messages)
    .where(
      and(
        eq(messages.conversationId, conversationId),
        eq(messages.senderType, "chatbot"),
        eq(messages.feedback, "dislike"),
        gt(messages.sequence, lastHandoff),
      ),
    );
  return n;
}
