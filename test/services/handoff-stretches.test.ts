import { describe, expect, it } from "vitest";
import { client } from "../../src/db/prepared";
import { conversationData, seedOwner, type Actor } from "../harness";
import { createChatbot, createUnanswering } from "../fixtures/chatbots";
import { bodyOf } from "../support/api";
import { objectMessages } from "../support/object-messages";

// The stretches with people (conversation_handoffs) kept by the triggers of migration 0025, driven
// through the API as visitors and operators do.

type Stretch = {
  reason: string;
  chatbot_id: string | null;
  inbox_id: string;
  is_test: number;
  queued_at: number;
  assignee_id: string | null;
  assigned_at: number | null;
  first_response_at: number | null;
  ended_at: number | null;
  resolved: number;
};

/** The conversation's stretches, in its part of the organization's data plane (services/shards/parts.ts). */
const stretchesOf = async (owner: Actor, conversationId: string) =>
  (
    await client(await conversationData(owner.organizationId, conversationId))
      .prepare("SELECT * FROM conversation_handoffs WHERE conversation_id = ? ORDER BY queued_at, rowid")
      .bind(conversationId)
      .all<Stretch>()
  ).results;

async function ok(res: Response, status = 200) {
  expect(res.status, await res.clone().text()).toBe(status);
  return res;
}

const ask = async (owner: Actor, chatbotId: string, content: string, conversation?: string) =>
  await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
    await ok(
      await owner.fetch("POST", `/chatbots/${chatbotId}/completions/`, {
        ...(conversation ? { conversation } : {}),
        message: { content },
      }),
    ),
  );

describe("handoff stretches kept by triggers", () => {
  it("a visitor asks for a person on the first turn; an operator takes over, answers, resolves", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const before = Date.now();
    const { conversationId: id } = await ask(owner, bot.id, "I need to talk to a person");
    let [stretch, ...more] = await stretchesOf(owner, id);
    expect(more).toEqual([]);
    expect(stretch).toMatchObject({
      reason: "visitor_request",
      chatbot_id: bot.id,
      inbox_id: bot.defaultInbox!.id,
      is_test: 0,
      assignee_id: null,
      assigned_at: null,
      first_response_at: null,
      ended_at: null,
      resolved: 0,
    });
    expect(stretch.queued_at).toBeGreaterThanOrEqual(before);

    await ok(await owner.fetch("POST", `/conversations/${id}/take-over/`));
    [stretch] = await stretchesOf(owner, id);
    expect(stretch).toMatchObject({ assignee_id: owner.userId, first_response_at: null });
    expect(stretch.assigned_at).toBeGreaterThanOrEqual(stretch.queued_at);

    await ok(
      await owner.fetch("POST", "/messages/outgoing/", { conversation: id, content: "Sam here, how can I help?" }),
      201,
    );
    await ok(await owner.fetch("POST", "/messages/outgoing/", { conversation: id, content: "Anything else?" }), 201);
    const messages = await objectMessages(id, "sender_type = 'user'");
    [stretch] = await stretchesOf(owner, id);
    expect(stretch.first_response_at).toBe(messages[0].created_at);
    expect(stretch.ended_at).toBeNull();

    await ok(await owner.fetch("POST", `/conversations/${id}/resolve/`));
    const stretches = await stretchesOf(owner, id);
    expect(stretches).toHaveLength(1);
    expect(stretches[0]).toMatchObject({ resolved: 1, assignee_id: owner.userId });
    expect(stretches[0].ended_at).toBeGreaterThanOrEqual(stretches[0].first_response_at!);
  });

  it(
    "a handoff under way (after two unanswered replies) and a hand-back end the stretch unresolved; a takeover " +
      "without a queue starts one",
    async () => {
      const owner = await seedOwner();
      const bot = await createUnanswering(owner);
      const { conversationId: id } = await ask(owner, bot.id, "What colour is the sky on Mars?");
      expect(await stretchesOf(owner, id)).toEqual([]);
      await ask(owner, bot.id, "And on Venus?", id);
      const [queued] = await stretchesOf(owner, id);
      expect(queued).toMatchObject({ reason: "unanswered", ended_at: null });

      // Handed back to the assistant before anyone answered: over, not resolved.
      await ok(await owner.fetch("PATCH", `/conversations/${id}/update-auto-reply/`, { autoReplyEnabled: true }));
      const [ended] = await stretchesOf(owner, id);
      expect(ended).toMatchObject({ resolved: 0, assigned_at: null, first_response_at: null });
      expect(ended.ended_at).toBeGreaterThanOrEqual(ended.queued_at);

      // An operator takes over the assistant's conversation: a stretch of its own, waiting nothing.
      await ok(await owner.fetch("POST", `/conversations/${id}/take-over/`));
      const stretches = await stretchesOf(owner, id);
      expect(stretches).toHaveLength(2);
      expect(stretches[1]).toMatchObject({
        reason: "operator",
        assignee_id: owner.userId,
        ended_at: null,
        first_response_at: null,
      });
      expect(stretches[1].assigned_at).toBe(stretches[1].queued_at);
    },
  );

  it(
    "auto reply off queues for a person (operator); a member's reply is the first response; private notes are " + "not",
    async () => {
      const owner = await seedOwner();
      const bot = await createChatbot(owner);
      const { conversationId: id } = await ask(owner, bot.id, "Hello");
      await ok(await owner.fetch("PATCH", `/conversations/${id}/update-auto-reply/`, { autoReplyEnabled: false }));
      expect(await stretchesOf(owner, id)).toMatchObject([{ reason: "operator", assignee_id: null, ended_at: null }]);

      // A note written straight as the notes' endpoint stores it: not a response to the visitor.
      const note = Date.now();
      await client(await conversationData(owner.organizationId, id))
        .prepare(
          "INSERT INTO messages (id, organization_id, conversation_id, sequence, type, sender_type, sender_id, " +
            "content, private, created_at) VALUES (?, ?, ?, 100, 'outgoing', 'user', ?, 'internal', 1, ?)",
        )
        .bind(crypto.randomUUID(), owner.organizationId, id, owner.userId, note)
        .run();
      expect((await stretchesOf(owner, id))[0].first_response_at).toBeNull();

      // Replying without a takeover: the first response, and the conversation is served.
      await ok(await owner.fetch("POST", "/messages/outgoing/", { conversation: id, content: "Hi, I'm here" }), 201);
      const [stretch] = await stretchesOf(owner, id);
      expect(stretch.first_response_at).toBeGreaterThanOrEqual(stretch.queued_at);
      expect(await stretchesOf(owner, id)).toHaveLength(1);
    },
  );

  it(
    "a member's reply to a conversation of the assistant opens a stretch that counts the reply as its first " +
      "response",
    async () => {
      const owner = await seedOwner();
      const bot = await createChatbot(owner);
      const { conversationId: id } = await ask(owner, bot.id, "Hello");
      await ok(await owner.fetch("POST", "/messages/outgoing/", { conversation: id, content: "A person here" }), 201);
      const [stretch, ...more] = await stretchesOf(owner, id);
      expect(more).toEqual([]);
      const [reply] = await objectMessages(id, "sender_type = 'user'");
      expect(stretch).toMatchObject({ reason: "operator", first_response_at: reply!.created_at, ended_at: null });
      expect(stretch.queued_at).toBeLessThanOrEqual(reply!.created_at);
    },
  );
});
