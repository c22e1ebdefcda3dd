// The figures of a message (rollups, records, test traffic apart, ratings) are written by the
// pipeline in the message's batch, with no trigger on D1 `messages` (migration 0027;
// src/services/statistics/message-figures.ts).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { rateMessage } from "../../support/ratings";
import { type Actor, conversationData, fromEveryPart, seedOwner } from "../../harness";
import { client as dbClient } from "../../../src/db/prepared";
import { dataDbs } from "../../../src/services/shards";
import { createChatbot } from "../../fixtures/chatbots";
import { bodyOf } from "../../support/api";
import { readEvents, storedReply } from "../../support/sse";
import { client, pub, seedWebChat, startSession } from "../widget/fixtures";
import { objectMessages } from "../../support/object-messages";

const HOUR = 3_600_000;
const TRIGGERS = [
  "usage_on_message",
  "usage_tests_on_message",
  "usage_on_feedback",
  "usage_tests_on_feedback",
  "handoffs_on_message",
  "handoffs_on_handoff_message",
];

type Row = Record<string, unknown> & { id: string; created_at: number };

/** The part of the organization's data plane holding a conversation, where its messages' figures are written. */
const dataOf = async (owner: Actor, conversationId: string) =>
  dbClient(await conversationData(owner.organizationId, conversationId));

const messagesOf = (conversationId: string) => objectMessages<Row>(conversationId);

/** An assistant's counters summed over its rows of `table`, in every part of the organization's data plane. */
const sums = async (owner: Actor, table: "usage_hourly" | "usage_hourly_tests", chatbotId: string) => {
  const perPart = await fromEveryPart(owner.organizationId, async (part) => [
    (await dbClient(part)
      .prepare(
        "SELECT coalesce(sum(incoming_messages), 0) AS incoming, coalesce(sum(outgoing_messages), 0) AS outgoing, " +
          "coalesce(sum(replies), 0) AS replies, coalesce(sum(reply_ms), 0) AS replyMs, " +
          "coalesce(sum(requests), 0) AS requests, coalesce(sum(likes), 0) AS likes, " +
          `coalesce(sum(dislikes), 0) AS dislikes FROM ${table} WHERE chatbot_id = ?`,
      )
      .bind(chatbotId)
      .first<Record<string, number>>())!,
  ]);
  return perPart.reduce((total, row) =>
    Object.fromEntries(Object.entries(total).map(([key, n]) => [key, n + row[key]])),
  );
};

const recordOf = async (owner: Actor, conversationId: string, questionId: string) =>
  (await dataOf(owner, conversationId))
    .prepare("SELECT * FROM chatbot_records WHERE id = ?")
    .bind(questionId)
    .first<Record<string, unknown>>();

async function talk(owner: Actor, botId: string, body: Record<string, unknown>) {
  const res = await owner.fetch("POST", `/chatbots/${botId}/completions/`, {
    message: { content: "Where is my parcel?" },
    ...body,
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await bodyOf<"POST /chatbots/{chatbotId}/completions/">(res)).conversationId;
}

describe("a message's figures, written by the pipeline", () => {
  it("no trigger on messages writes them: a turn through the API stores its counts and its record", async () => {
    // In no data plane: `DB` (the organizations from before the shards) nor a shard.
    for (const plane of dataDbs(env)) {
      const { results: triggers } = await dbClient(plane)
        .prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'messages'")
        .all<{ name: string }>();
      expect(triggers.map((t) => t.name).filter((name) => TRIGGERS.includes(name))).toEqual([]);
    }

    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const conversationId = await talk(owner, bot.id, {});
    const [question, reply] = await messagesOf(conversationId);
    const hourly = async (at: number, modelId: string) =>
      (await dataOf(owner, conversationId))
        .prepare("SELECT * FROM usage_hourly WHERE chatbot_id = ? AND hour = ? AND member_id = ? AND model_id = ?")
        .bind(bot.id, at - (at % HOUR), owner.userId, modelId)
        .first();
    expect(await hourly(question.created_at, "")).toMatchObject({
      organization_id: owner.organizationId,
      incoming_messages: 1,
      replies: 0,
      requests: 0,
    });
    expect(await hourly(reply.created_at, reply.model_id as string)).toMatchObject({
      incoming_messages: 0,
      outgoing_messages: 1,
      replies: 1,
      reply_ms: reply.created_at - question.created_at,
      requests: 1,
      words: reply.words_count,
      input_tokens: reply.input_tokens ?? 0,
      output_tokens: reply.output_tokens ?? 0,
      likes: 0,
      dislikes: 0,
    });
    expect(await recordOf(owner, conversationId, question.id)).toEqual(
      expect.objectContaining({
        organization_id: owner.organizationId,
        chatbot_id: bot.id,
        conversation_id: conversationId,
        contact_id: null,
        reply_message_id: reply.id,
        input_message: "Where is my parcel?",
        output_message: reply.content,
        context: reply.citation_nodes,
        reply_ms: reply.created_at - question.created_at,
        error: null,
        created_at: question.created_at,
        answered_at: reply.created_at,
        evaluation_status: null,
      }),
    );
  });

  it("keeps test traffic apart and moves a rating's counts: a dislike, then a like", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    await talk(owner, bot.id, {});
    const test = await talk(owner, bot.id, { test: true });
    await talk(owner, bot.id, { conversation: test, message: { content: "It was due Monday" } });
    const [q1, r1, q2, r2] = await messagesOf(test);
    // The second turn goes through the conversation's object: its reply is recorded on its own question.
    expect(await recordOf(owner, test, q2.id)).toMatchObject({
      reply_message_id: r2.id,
      input_message: "It was due Monday",
      reply_ms: r2.created_at - q2.created_at,
    });
    const testMs = r1.created_at - q1.created_at + (r2.created_at - q2.created_at);
    expect(await sums(owner, "usage_hourly", bot.id)).toMatchObject({
      incoming: 3,
      outgoing: 3,
      replies: 3,
      requests: 3,
    });
    expect(await sums(owner, "usage_hourly_tests", bot.id)).toEqual({
      incoming: 2,
      outgoing: 2,
      replies: 2,
      replyMs: testMs,
      requests: 2,
      likes: 0,
      dislikes: 0,
    });

    await rateMessage(test, r1.id, "dislike");
    for (const table of ["usage_hourly", "usage_hourly_tests"] as const)
      expect(await sums(owner, table, bot.id)).toMatchObject({ likes: 0, dislikes: 1 });
    await rateMessage(test, r1.id, "like");
    await rateMessage(test, r1.id, "like");
    for (const table of ["usage_hourly", "usage_hourly_tests"] as const)
      expect(await sums(owner, table, bot.id)).toMatchObject({ likes: 1, dislikes: 0 });
  });

  it(
    "a visitor's ratings count once each, at once too; the assistant's handoff takes over its question's " + "record",
    async () => {
      const owner = await seedOwner();
      const chat = await seedWebChat(owner);
      const session = await startSession(chat.id);
      const send = async (body: Record<string, unknown>) => {
        const res = await client().post(pub(chat.id, "messages/"), body, session.token);
        expect(res.status, await res.clone().text()).toBe(200);
        return storedReply(await readEvents(res));
      };
      const rate = async (messageId: string, feedback: string | null) => {
        const res = await client().post(pub(chat.id, `messages/${messageId}/feedback/`), { feedback }, session.token);
        expect(res.status, await res.clone().text()).toBe(200);
      };
      const first = await send({ content: "Where is my parcel?" });
      const conversation = first.conversationId;
      // A first turn stored by the worker: its reply recorded on its question too.
      const [q1] = await messagesOf(conversation);
      expect(await recordOf(owner, conversation, q1.id)).toMatchObject({
        reply_message_id: first.messageId,
        contact_id: expect.any(String),
      });
      await rate(first.messageId!, "dislike");
      expect(await sums(owner, "usage_hourly", chat.bot.id)).toMatchObject({ likes: 0, dislikes: 1 });
      await rate(first.messageId!, "like");
      expect(await sums(owner, "usage_hourly", chat.bot.id)).toMatchObject({ likes: 1, dislikes: 0 });

      await Promise.all([
        rate(first.messageId!, "dislike"),
        rate(first.messageId!, null),
        rate(first.messageId!, "like"),
      ]);
      const stored = (await messagesOf(conversation)).find((m) => m.id === first.messageId)!.feedback;
      expect(await sums(owner, "usage_hourly", chat.bot.id)).toMatchObject({
        likes: Number(stored === "like"),
        dislikes: Number(stored === "dislike"),
      });
      expect(await sums(owner, "usage_hourly_tests", chat.bot.id)).toMatchObject({
        incoming: 0,
        likes: 0,
        dislikes: 0,
      });
      // Written through the conversation's object: its store, which the message list reads, has the rating D1 has,
      // and so has the widget's history.
      const listed = await bodyOf<"GET /messages/">(
        await owner.fetch("GET", `/messages/?conversation=${conversation}&pageSize=10`),
      );
      expect(listed.results.find((m) => m.id === first.messageId)?.feedback ?? null).toBe(stored);
      const history = await bodyOf<"GET /web-chats/{id}/public/conversations/{conversationId}/messages/">(
        await client().get(pub(chat.id, `conversations/${conversation}/messages/`), session.token),
      );
      expect(history.results.find((m) => m.id === first.messageId)).toMatchObject({ feedback: stored });

      // A second dislike: the assistant hands off (its object says so), recorded on the latest question.
      const second = await send({ conversation, content: "It was due Monday" });
      await rate(first.messageId!, "dislike");
      await rate(second.messageId!, "dislike");
      await expect.poll(async () => (await messagesOf(conversation)).length).toBe(5);
      const [, , question, , handoff] = await messagesOf(conversation);
      expect(await recordOf(owner, conversation, question.id)).toMatchObject({
        reply_message_id: handoff.id,
        output_message: handoff.content,
        reply_ms: handoff.created_at - question.created_at,
      });
      const stretch = await (await dataOf(owner, conversation))
        .prepare("SELECT reason FROM conversation_handoffs WHERE conversation_id = ?")
        .bind(conversation)
        .first();
      expect(stretch).toEqual({ reason: "unanswered" });
    },
  );
});
