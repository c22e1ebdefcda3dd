// A visitor's rating as the widget's route stores it (services/widget/feedback.ts): through the conversation's
// object, which holds the message.
import { env } from "cloudflare:test";
import { client } from "../../src/db/prepared";
import { conversationObject } from "../../src/services/conversations";
import { dataDbs } from "../../src/services/shards";

type RatedConversation = {
  id: string;
  organizationId: string;
  chatbotId: string | null;
  contactId: string | null;
  createdById: string | null;
  isTest: number;
};

export async function rateMessage(conversationId: string, messageId: string, feedback: "like" | "dislike" | null) {
  // The conversation is in its organization's data plane: `DB` or a shard (services/shards `dataDb`).
  let conversation: RatedConversation | null = null;
  for (const data of dataDbs(env)) {
    conversation ??= await client(data)
      .prepare(
        "SELECT id, organization_id AS organizationId, chatbot_id AS chatbotId, contact_id AS contactId, " +
          "created_by_id AS createdById, is_test AS isTest FROM conversations WHERE id = ?",
      )
      .bind(conversationId)
      .first<RatedConversation>();
  }
  if (!conversation) throw new Error(`no conversation ${conversationId}`);
  const rated = await conversationObject(env, conversationId).rate(
    { ...conversation, isTest: Boolean(conversation.isTest) },
    messageId,
    feedback,
  );
  if (!rated) throw new Error(`no answer ${messageId} in ${conversationId}`);
  return rated;
}
