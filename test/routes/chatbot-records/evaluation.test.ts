import { describe, expect, it } from "vitest";
import { type Actor, conversationData, seedOwner } from "../../harness";
import { client } from "../../../src/db/prepared";
import { createChatbot } from "../../fixtures/chatbots";
import { ok } from "../statistics/helpers";
import { runQueue } from "../../support/queues";
import { STRANDED_EVALUATION_MS, strandedEvaluations } from "../../../src/services/evaluation/records";

type Rec = {
  id: string;
  evaluationStatus?: string | null;
  faithfulness?: number | null;
  answerRelevancy?: number | null;
  answerRelevancyDisplay?: string;
  answerCorrectness?: number | null;
};
const today = () => new Date().toISOString().slice(0, 10);

/** The chatbot records of a conversation's part of the organization's data plane. */
const recordsOf = async (owner: Actor, conversationId: string) =>
  client(await conversationData(owner.organizationId, conversationId));

/** A completion's record, marked pending evaluation (as a job waiting for its queue leaves it). */
async function pendingRecord(owner: Actor, chatbotId: string): Promise<{ id: string; conversationId: string }> {
  const { conversationId } = await ok<"POST /chatbots/{chatbotId}/completions/">(
    await owner.fetch("POST", `/chatbots/${chatbotId}/completions/`, { message: { content: "Hello there" } }),
  );
  const records = await recordsOf(owner, conversationId);
  const [record] = (
    await records
      .prepare("SELECT id, conversation_id AS conversationId FROM chatbot_records WHERE chatbot_id = ?")
      .bind(chatbotId)
      .all<{ id: string; conversationId: string }>()
  ).results;
  await records.prepare("UPDATE chatbot_records SET evaluation_status = 'pending' WHERE id = ?").bind(record.id).run();
  return record;
}

/**
 * Left pending past its time, `record`'s job is among those the housekeeping cron sends again, with its organization.
 */
async function expectSentAgainLater(owner: Actor, record: { id: string; conversationId: string }) {
  const later = Date.now() + STRANDED_EVALUATION_MS + 1000;
  expect(
    await strandedEvaluations(await conversationData(owner.organizationId, record.conversationId), later),
  ).toContainEqual({
    recordId: record.id,
    organizationId: owner.organizationId,
    conversationId: record.conversationId,
  });
}

describe("evaluation of answered questions (enable-evaluation, the chatbot-evaluation queue)", () => {
  it("scores each answer in the background once evaluation is on, and shows the scores on the records", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    await ok<"POST /chatbots/{chatbotId}/completions/">(
      await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, { message: { content: "Before evaluation" } }),
    );
    await ok<"PATCH /chatbots/{id}/enable-evaluation/">(
      await owner.fetch("PATCH", `/chatbots/${bot.id}/enable-evaluation/`, { enableEvaluation: true }),
    );
    await ok<"POST /chatbots/{chatbotId}/completions/">(
      await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, { message: { content: "Where is my parcel?" } }),
    );
    let records: Rec[] = [];
    for (let i = 0; i < 100; i++) {
      records = (
        await ok<"GET /chatbots/{chatbotPk}/records/">(
          await owner.fetch("GET", `/chatbots/${bot.id}/records/?startDate=${today()}&endDate=${today()}`),
        )
      ).results;
      if (records[0]?.evaluationStatus === "done") break;
      await new Promise((r) => setTimeout(r, 50));
    }
    // The local model echoes the question: relevant, but supported by no context.
    expect(records[0]).toMatchObject({
      evaluationStatus: "done",
      faithfulness: 0,
      answerRelevancy: 1,
      answerRelevancyDisplay: "100%",
      answerCorrectness: null,
    });
    // Answered before evaluation was on.
    expect(records[1]).toMatchObject({ evaluationStatus: null, faithfulness: null });
  });

  it("a redelivered or unknown job changes nothing; a scored record is not scored again", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner, { enableEvaluation: true });
    const record = await pendingRecord(owner, bot.id);
    const records = await recordsOf(owner, record.conversationId);
    await expectSentAgainLater(owner, record);
    // "b" as a message sent before jobs named the record's organization: its record is looked up.
    const result = await runQueue("chatbot-evaluation", [
      { id: "a", body: { recordId: record.id, organizationId: owner.organizationId } },
      { id: "b", body: { recordId: record.id } },
      { id: "c", body: { nothing: true } },
    ]);
    expect(result.explicitAcks.sort()).toEqual(["a", "b", "c"]);
    const stored = await records
      .prepare("SELECT evaluation_status, answer_relevancy FROM chatbot_records WHERE id = ?")
      .bind(record.id)
      .first<{ evaluation_status: string; answer_relevancy: number }>();
    expect(stored).toMatchObject({ evaluation_status: "done" });
    await records.prepare("UPDATE chatbot_records SET answer_relevancy = 0.123 WHERE id = ?").bind(record.id).run();
    await runQueue("chatbot-evaluation", [{ id: "d", body: { recordId: record.id } }]);
    expect(
      (await records
        .prepare("SELECT answer_relevancy FROM chatbot_records WHERE id = ?")
        .bind(record.id)
        .first<{ answer_relevancy: number }>())!.answer_relevancy,
    ).toBe(0.123);
  });

  it("a job's last failed try marks its record failed; DB refusing that leaves it pending for the cron", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const record = await pendingRecord(owner, bot.id);
    const records = await recordsOf(owner, record.conversationId);
    const status = async () =>
      (await records
        .prepare("SELECT evaluation_status FROM chatbot_records WHERE id = ?")
        .bind(record.id)
        .first<string>("evaluation_status"))!;
    const consume = (attempts: number) =>
      runQueue("chatbot-evaluation", [{ id: `try-${attempts}`, attempts, body: { recordId: record.id } }]);
    // Every write of the record's evaluation status is refused: scoring fails, and so does marking it failed.
    const trigger = `"evaluation_down_${record.id.replace(/-/g, "")}"`;
    await records
      .prepare(
        `CREATE TRIGGER ${trigger} BEFORE UPDATE OF evaluation_status ON chatbot_records ` +
          `WHEN NEW.id = '${record.id}' BEGIN SELECT RAISE(ABORT, 'evaluation refused'); END`,
      )
      .run();
    try {
      expect((await consume(1)).retryMessages).toEqual([{ msgId: "try-1" }]);
      expect((await consume(3)).explicitAcks).toEqual(["try-3"]);
      expect(await status()).toBe("pending");
    } finally {
      await records.prepare(`DROP TRIGGER ${trigger}`).run();
    }
    // The housekeeping cron sends it again; with DB taking writes, scoring it still failing would mark it failed.
    await expectSentAgainLater(owner, record);
  });
});
