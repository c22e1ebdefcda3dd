import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { data, fromBeforeTheShards, seedOwner } from "../../harness";
import { LOCAL_LLM, createChatbot } from "../../fixtures/chatbots";
import { batch, client } from "../../../src/db/prepared";
import { feedbackFigureWrites } from "../../../src/services/statistics/message-figures";
import { figuredAssistant, ok, seedContact, seedConversation, utc } from "./helpers";

type Migration = { name: string; queries: string[] };

/**
 * The backfill statements of migration 0009 as the test runner read them from migrations/, limited
 * to one organization: test files share one database, whose other organizations' counters must not
 * be counted twice. Each statement has exactly one "chatbot_id IS NOT NULL" condition to extend.
 */
function backfill(organizationId: string): string[] {
  const migration = (env.TEST_MIGRATIONS as unknown as Migration[]).find((m) => m.name.startsWith("0009_"))!;
  return migration.queries
    .filter((q) => /^\s*(--[^\n]*\n\s*)*INSERT/i.test(q))
    .map((q) => {
      const scoped = q.replace(
        /((?:c\.)?)`chatbot_id` IS NOT NULL/g,
        (_, p: string) => `${p}\`chatbot_id\` IS NOT NULL AND ${p}\`organization_id\` = '${organizationId}'`,
      );
      expect(scoped.split(organizationId).length).toBe(2);
      return scoped;
    });
}

/**
 * A rating of a message D1 still holds (stored before messages moved to their conversations' objects, as this
 * migration's messages were): its figures as the object writes them, and the rating on the D1 row.
 */
async function rateInD1(organizationId: string, messageId: string, feedback: "like" | "dislike") {
  const db = await data(organizationId);
  const row = await client(db)
    .prepare(
      "SELECT m.feedback, m.sender_type AS senderType, m.model_id AS modelId, m.created_at AS createdAt, " +
        "c.id, c.contact_id AS contactId, c.organization_id AS organizationId, c.chatbot_id AS chatbotId, " +
        "c.created_by_id AS createdById, " +
        "c.is_test AS isTest FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE m.id = ?",
    )
    .bind(messageId)
    .first<
      { feedback: string | null; senderType: "chatbot"; modelId: string | null; createdAt: number } & {
        id: string;
        contactId: string | null;
        organizationId: string;
        chatbotId: string | null;
        createdById: string | null;
        isTest: number;
      }
    >();
  const conversation = { ...row!, isTest: Boolean(row!.isTest) };
  const assistant = row!.chatbotId ? await figuredAssistant(row!.chatbotId) : null;
  await batch(db, [
    ...feedbackFigureWrites(db, conversation, row!, row!.feedback, feedback, assistant),
    client(db).prepare("UPDATE messages SET feedback = ? WHERE id = ?").bind(feedback, messageId),
  ]);
}

const snapshot = async (org: string) => {
  const d1 = client(await data(org));
  return Promise.all([
    d1
      .prepare("SELECT * FROM usage_hourly WHERE organization_id = ? ORDER BY chatbot_id, hour, member_id, model_id")
      .bind(org)
      .all(),
    d1
      .prepare("SELECT * FROM usage_hourly_contacts WHERE organization_id = ? ORDER BY chatbot_id, hour, contact_id")
      .bind(org)
      .all(),
    d1
      .prepare(
        "SELECT id, organization_id, chatbot_id, conversation_id, contact_id, reply_message_id, input_message, " +
          "output_message, context, reply_ms, created_at, answered_at FROM chatbot_records WHERE organization_id " +
          "= ? ORDER BY id",
      )
      .bind(org)
      .all(),
  ]).then((all) => all.map((r) => r.results));
};

describe("migration 0009's backfill", () => {
  it("rebuilds from stored messages exactly the counters and records written with them", async () => {
    const owner = await seedOwner();
    // The migration ran when `DB` held the data plane: an organization from before the shards.
    await fromBeforeTheShards(owner.organizationId);
    const bot = await createChatbot(owner);
    const other = await createChatbot(owner);
    const contact = await seedContact(owner.organizationId);
    await ok<"POST /chatbots/{chatbotId}/completions/">(
      await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, { message: { content: "Where is my parcel?" } }),
    );
    for (let i = 0; i < 6; i++) {
      const at = utc("2026-08-01T10:00:00Z") + i * 5_400_000;
      await seedConversation(
        owner.organizationId,
        i % 2 ? bot.id : other.id,
        bot.defaultInbox!.id,
        [
          { at, feedback: "like", toolCalls: i % 3, inputTokens: 10 * i, outputTokens: i, words: i },
          { at: at + 60_000, answer: null },
          { at: at + 120_000, feedback: "dislike" },
        ],
        { contactId: i % 2 ? contact : null, createdById: i % 3 ? owner.userId : null, modelId: LOCAL_LLM },
      );
    }
    const messages = client(await data(owner.organizationId));
    const { results: changed } = await messages
      .prepare("SELECT id FROM messages WHERE organization_id = ? AND feedback = 'like' AND rowid % 2 = 0")
      .bind(owner.organizationId)
      .all<{ id: string }>();
    for (const { id } of changed) await rateInD1(owner.organizationId, id, "dislike");
    const live = await snapshot(owner.organizationId);
    expect(live[0].length).toBeGreaterThan(5);

    await messages.batch(
      ["usage_hourly", "usage_hourly_contacts", "chatbot_records"].map((t) =>
        messages.prepare(`DELETE FROM ${t} WHERE organization_id = ?`).bind(owner.organizationId),
      ),
    );
    const statements = backfill(owner.organizationId);
    expect(statements).toHaveLength(4);
    // The migration ran on `DB` when it held both planes (it joins the assistants).
    for (const q of statements) await env.DB.prepare(q).run();
    expect(await snapshot(owner.organizationId)).toEqual(live);
  });
});
