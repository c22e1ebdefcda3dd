// A visitor's rating as the widget's route stores it (services/widget/feedback.ts): through the conversation's
// object, which holds the message.
import { env } from "cloudflare:test";
import { conversationObject } from "../../src/services/conversations";

export async function rateMessage(conversationId: string, messageId: string, feedback: "like" | "dislike" | null) {
  const conversation = await env.DB.prepare(
    "SELECT id, organization_id AS organizationId, chatbot_id AS chatbotId, contact_id AS contactId, " +
      "created_by_id AS createdById, is_test AS isTest FROM conversations WHERE id = ?",
  )
    .bind(conversationId)
    .first<{
      id: string;
      organizationId: string;
      chatbotId: string | null;
      contactId: string | null;
      createdById: string | null;
      isTest: number;
    }>();
  if (!conversation) throw new Error(`no conversation ${conversationId}`);
  const rated = await conversationObject(env, conversationId).rate(
    { ...conversation, isTest: Boolean(conversation.isTest) },
    messageId,
    feedback,
  );
  if (!rated) throw new Error(`no answer ${messageId} in ${conversationId}`);
  return rated;
}
