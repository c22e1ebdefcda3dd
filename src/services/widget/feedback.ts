// A visitor's like or dislike of an answer; a second dislike since the assistant last handed off
// makes it hand the conversation to a person (CONTRACT section 18; docs/decisions.md, "Handoff to a person").
// And a visitor's satisfaction rating of their resolved conversation (conversation/csat.ts).
import { and, desc, eq } from "drizzle-orm";
import { conversations } from "../../db/schema";
import type { Bindings, Db } from "../../env";
import { notFound } from "../../lib/errors";
import { conversationObject, type ConversationRow, type MessageRow } from "../conversations";
import { DISLIKES_TO_HAND_OFF } from "../conversation/handoff";
import { firstAcrossParts, sqlOrder } from "../shards/parts-merge";
import type { PublicWebChat } from "./web-chats";
import { rateConversation } from "../conversation/csat";
import { conversationDb } from "../shards/parts";
import { type Visitor, visitorConversation } from "./visitors";

/** What of a conversation a rating's statistics need (statistics/message-figures.ts, feedbackFigureWrites). */
export type RatedConversation = Pick<
  ConversationRow,
  "id" | "organizationId" | "chatbotId" | "contactId" | "createdById" | "isTest"
>;

/**
 * The visitor's conversations in an inbox on one data part, the latest active first, with what a rating needs
 * (`lastMessageAt` too where parts are merged by it): a query not yet run, read through `conversations_contact_idx`
 * (test/services/conversation-list-plans.test.ts).
 */
export const ratedConversationsIn = (data: Db, inboxId: string, contactId: string, withActivity: boolean) =>
  data
    .select({
      id: conversations.id,
      organizationId: conversations.organizationId,
      chatbotId: conversations.chatbotId,
      contactId: conversations.contactId,
      createdById: conversations.createdById,
      isTest: conversations.isTest,
      ...(withActivity ? { lastMessageAt: conversations.lastMessageAt } : {}),
    })
    .from(conversations)
    .where(and(eq(conversations.inboxId, inboxId), eq(conversations.contactId, contactId)))
    .orderBy(desc(conversations.lastMessageAt), desc(conversations.id));

/** How many of the visitor's conversations are asked for the message at once. */
const ASKED_AT_ONCE = 4;

export async function rateAnswer(
  env: Bindings,
  parts: Db[],
  waitUntil: (p: Promise<unknown>) => void,
  chat: PublicWebChat,
  visitor: Visitor,
  messageId: string,
  feedback: "like" | "dislike" | null,
): Promise<MessageRow> {
  // The message must be an answer in one of the visitor's conversations: the route names only the message, and
  // messages live in their conversations' objects (docs/decisions.md, "Messages in the conversation object"), so the
  // visitor's conversations are asked, the latest first, a few at a time; only the one holding it rates it. They are
  // read on each of the organization's data parts (`parts`), merged by the order's first key, read for that alone.
  const mine = await firstAcrossParts(
    parts,
    (data) => ratedConversationsIn(data, chat.inboxId, visitor.contactId, parts.length > 1),
    sqlOrder((c) => [c.lastMessageAt ?? null, c.id], true),
  );
  for (let i = 0; i < mine.length; i += ASKED_AT_ONCE) {
    const asked = mine.slice(i, i + ASKED_AT_ONCE);
    // The web chat's assistant, read with it, is the conversations' unless changed since (the object reads it then).
    const bot = chat.assistant?.chatbot;
    const assistant = bot
      ? { id: bot.id, largeLanguageModelId: bot.largeLanguageModelId, enableEvaluation: bot.enableEvaluation }
      : null;
    const rated = await Promise.all(
      asked.map((c) => conversationObject(env, c.id).rate(c, messageId, feedback, assistant)),
    );
    // A stored row through RPC (its JSON columns are `unknown`, which RPC's types cannot name).
    const found = rated.find((r) => r !== null) as unknown as { message: MessageRow; dislikes: number } | undefined;
    if (!found) continue;
    const { message, dislikes } = found;
    if (feedback === "dislike" && dislikes >= DISLIKES_TO_HAND_OFF) {
      // Said by the conversation's object, in order with its messages; the visitor sees it on their live stream.
      waitUntil(
        conversationObject(env, message.conversationId).handOff(
          message.organizationId,
          message.conversationId,
          "dislikes",
        ),
      );
    }
    return message;
  }
  throw notFound("Message not found.");
}

/**
 * The visitor's rating of their conversation (404 when not theirs), stored on its part (rateConversation), the comment
 * trimmed (empty: none). Returns the conversation as rated.
 */
export async function rateAsVisitor(
  env: Bindings,
  waitUntil: (p: Promise<unknown>) => void,
  { chat, visitor }: { chat: PublicWebChat; visitor: Visitor },
  conversationId: string,
  { rating, comment }: { rating: number; comment?: string | null },
): Promise<ConversationRow> {
  const conversation = await visitorConversation(env, chat, visitor, conversationId);
  const data = await conversationDb(env, conversation.organizationId, conversation.id);
  return rateConversation(env, data, waitUntil, conversation, rating, comment?.trim() || null);
}
