// A visitor's like or dislike of an answer; a second dislike since the assistant last handed off
// makes it hand the conversation to a person (CONTRACT section 18; docs/decisions.md, "Handoff to a person").
import { and, count, eq, gt, inArray, sql } from "drizzle-orm";
import { conversations, messages } from "../../db/schema";
import type { Bindings, Db } from "../../env";
import { notFound } from "../../lib/errors";
import { conversationObject, type MessageRow } from "../conversations";
import { DISLIKES_TO_HAND_OFF } from "../conversation/handoff";
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
  const mine = db
    .select({ id: conversations.id })
    .from(conversations)
    .where(and(eq(conversations.inboxId, chat.inboxId), eq(conversations.contactId, visitor.contactId)));
  // One conditional update: the message must be an answer in one of the visitor's conversations.
  const [row] = await db
    .update(messages)
    .set({ feedback })
    .where(and(eq(messages.id, messageId), eq(messages.senderType, "chatbot"), inArray(messages.conversationId, mine)))
    .returning();
  if (!row) throw notFound("Message not found.");
  if (feedback === "dislike" && (await dislikesSinceHandoff(db, row.conversationId)) >= DISLIKES_TO_HAND_OFF) {
    // Said by the conversation's object, in order with its messages; the visitor sees it on their live stream.
    waitUntil(conversationObject(env, row.conversationId).handOff(row.conversationId, "dislikes"));
  }
  return row;
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
