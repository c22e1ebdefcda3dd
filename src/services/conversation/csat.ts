// Satisfaction ratings (CSAT; docs/decisions.md, "Typing and satisfaction"): once a conversation is
// resolved, the visitor is asked for a rating of 1 to 5 and an optional comment. The widget asks on
// its own (its live stream says `resolved`); a messaging channel's visitor gets the question as a
// message of the assistant's side with the platform's buttons (askForRating), and their answer to it
// (a button's callback, or a message "1".."5" right after it) is kept as the rating (channelRating).
import { and, eq } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { chatbots, conversations, inboxChannels } from "../../db/schema";
import { ApiError, conflict } from "../../lib/errors";
import { conversationObject, type ConversationRow } from "../conversations";
import { storedMessages } from "../messages";
import { conversationEvent, publishInboxEvents } from "./inbox-events";
import { inLanguage, type InLanguages } from "./handoff";

/** An answer may be changed (given again) for this long after it was first given; later, 409. */
export const CSAT_CHANGE_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Stores the visitor's rating of a resolved conversation (400 `conversation_not_resolved` otherwise).
 * A second answer replaces the first within CSAT_CHANGE_MS of the first (the widget lets a visitor
 * correct a slip); after that the rating stands (409). Told to the live inbox as `conversation.updated`.
 */
export async function rateConversation(
  env: Bindings,
  db: Db,
  waitUntil: (p: Promise<unknown>) => void,
  conversation: ConversationRow,
  rating: number,
  comment: string | null,
  now = Date.now(),
): Promise<ConversationRow> {
  if (conversation.status !== "resolved")
    throw new ApiError(
      400,
      "conversation_not_resolved",
      "Only a resolved conversation can be rated: it is still " +
        `${conversation.status === "queued" ? "waiting for a person" : "open"}.`,
    );
  if (conversation.csatAt !== null && now - conversation.csatAt > CSAT_CHANGE_MS)
    throw conflict("This conversation was rated more than 7 days ago; the rating can no longer be changed.");
  // The first answer's time stays: the 7 days run from it, and statistics date the rating by it.
  const csatAt = conversation.csatAt ?? now;
  const [row] = await db
    .update(conversations)
    .set({ csatRating: rating, csatComment: comment, csatAt, updatedAt: now })
    .where(and(eq(conversations.id, conversation.id), eq(conversations.status, "resolved")))
    .returning();
  if (!row)
    throw new ApiError(
      400,
      "conversation_not_resolved",
      "Only a resolved conversation can be rated: it was reopened meanwhile.",
    );
  waitUntil(publishInboxEvents(env, row.organizationId, conversationEvent("conversation.updated", row)));
  return row;
}

/** What the satisfaction question carries in its `contentPayload`, so its answer is recognised. */
export const CSAT_ASK = { csat: { ask: true } } as const;
export const RATING_CHOICES = ["1", "2", "3", "4", "5"];
/** The question in the visitor's language, chosen from their latest message as the handoff message is. */
const QUESTIONS: InLanguages = {
  en: "How would you rate this conversation? Reply with a number from 1 (poor) to 5 (excellent).",
  "zh-TW": "您對這次對話的滿意度如何？請回覆 1（很差）到 5（很好）的數字。",
  "zh-CN": "您对这次对话的满意度如何？请回复 1（很差）到 5（很好）的数字。",
  ja: "今回のご対応はいかがでしたか？1（不満）から5（満足）の数字でお答えください。",
};

export const isRatingAsk = (payload: unknown) => !!(payload as { csat?: { ask?: unknown } } | null)?.csat?.ask;

/**
 * After an operator resolves a conversation of a messaging channel: the assistant's side asks for a
 * rating (a message with quick replies 1-5, delivered like any reply; services/channels/outbound.ts
 * gives it the platform's buttons), in the language of the visitor's latest message. Nothing for a web chat (the widget
 * asks on its own) or an inbox
 * without a channel.
 */
export async function askForRating(
  env: Bindings,
  db: Db,
  conversation: { id: string; organizationId: string; inboxId: string; chatbotId: string | null },
): Promise<void> {
  const [channel] = await db
    .select({ inboxId: inboxChannels.inboxId })
    .from(inboxChannels)
    .where(eq(inboxChannels.inboxId, conversation.inboxId));
  if (!channel) return;
  // Both read by the conversation's object, in one read.
  const [latest, visitor] = await storedMessages(env, conversation.organizationId, conversation.id).lookup([
    { latest: { visible: true } },
    { latest: { senderType: "contact" } },
  ]);
  // Resolved again without a word to the visitor since (a private note is none): asked already.
  if (!latest || isRatingAsk(latest.contentPayload)) return;
  const [bot] = conversation.chatbotId
    ? await db
        .select({
          id: chatbots.id,
          name: chatbots.name,
          largeLanguageModelId: chatbots.largeLanguageModelId,
          enableEvaluation: chatbots.enableEvaluation,
        })
        .from(chatbots)
        .where(eq(chatbots.id, conversation.chatbotId))
    : [];
  await conversationObject(env, conversation.id).say(
    conversation.organizationId,
    conversation.id,
    {
      content: inLanguage(QUESTIONS, visitor?.content ?? ""),
      contentPayload: { ...CSAT_ASK },
      senderId: bot?.id ?? null,
      senderName: bot?.name ?? "",
    },
    bot ?? null,
  );
}

/**
 * A messaging visitor's answer to the satisfaction question: the rating (a button's `rating`, else a
 * message that is just a number 1-5) stored on `conversation` when the question is the latest
 * message the visitor saw (private notes aside) and was not answered yet. Returns the conversation
 * rated, or null: then the message is an ordinary one (a new question opens a new conversation).
 */
export async function channelRating(
  env: Bindings,
  db: Db,
  waitUntil: (p: Promise<unknown>) => void,
  conversation: ConversationRow | undefined,
  answer: { rating?: number; text: string },
): Promise<ConversationRow | null> {
  const rating = answer.rating ?? Number(/^\s*([1-5])\s*$/.exec(answer.text)?.[1] ?? NaN);
  if (conversation?.status !== "resolved" || !(rating >= 1 && rating <= 5)) return null;
  // The latest message the visitor saw: an agent's private note (a wrap-up written after resolving) is not in their
  // chat, so the question is still what they answer (docs/decisions.md, "Private notes: one flag, and effects opt in").
  const [latest] = await storedMessages(env, conversation.organizationId, conversation.id).lookup([
    { latest: { visible: true } },
  ]);
  if (!latest || !isRatingAsk(latest.contentPayload)) return null;
  // Answered already: once per question.
  if (conversation.csatAt !== null && conversation.csatAt >= latest.createdAt) return null;
  return rateConversation(env, db, waitUntil, { ...conversation, csatAt: null }, rating, null);
}
