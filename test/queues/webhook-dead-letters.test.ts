import { afterEach, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { DEAD_LETTERED } from "../../src/services/webhooks/dead-letters";
import { RETRY_SCHEDULE_SECONDS } from "../../src/services/webhooks/retries";
import { conversationData, db, seedOwner } from "../harness";
import { createChatbot } from "../fixtures/chatbots";
import { runQueue } from "../support/queues";
import { attemptsOf, received, switchedWebhook, visitorMessages, waitFor } from "./webhook-fixtures";

/**
 * Two webhooks of one inbox whose first attempts the real consumer has finished; then a second
 * event's attempts left pending (as if just written) while one webhook's row is damaged so that
 * reading it throws: the consumer cannot handle that attempt.
 */
async function poisoned() {
  const owner = await seedOwner();
  const bot = await createChatbot(owner);
  const inbox = bot.defaultInbox!.id;
  const healthy = await switchedWebhook(owner, inbox, "ok");
  const broken = await switchedWebhook(owner, inbox, "ok", { retryFailedDeliveries: true });
  await visitorMessages(owner, bot.id, 1);
  for (const { hook } of [healthy, broken])
    await waitFor(
      () => attemptsOf(hook.id),
      (rows) => rows[0]?.status === "success",
    );
  // A second event, its attempts pending again so the real consumer leaves them to the test.
  await db().run(sql`update webhooks set headers = '{not json' where id = ${broken.hook.id}`);
  damaged.push(broken.hook.id);
  const [sent] = await attemptsOf(healthy.hook.id);
  await (await conversationData(owner.organizationId, sent.conversationId!)).run(
    sql`update webhook_deliveries set status = 'pending', attempts = 0 where message_id = ${sent.messageId}`,
  );
  const [good] = await attemptsOf(healthy.hook.id);
  const [bad] = await attemptsOf(broken.hook.id);
  return { healthy, broken, good, bad };
}

/** Damaged webhook rows are mended after each test: the database is shared with other test files. */
const damaged: string[] = [];
afterEach(async () => {
  for (const id of damaged.splice(0)) await db().run(sql`update webhooks set headers = '{}' where id = ${id}`);
});

describe("what the webhook consumer cannot handle goes to the dead-letter queue, whose consumer records it", () => {
  it("a batch with an attempt that cannot be read: the others are sent, that one retried and given back", async () => {
    const { healthy, good, bad } = await poisoned();
    const result = await runQueue("webhook-deliveries", [
      { id: "good", body: { deliveryId: good.id } },
      { id: "bad", body: { deliveryId: bad.id }, attempts: 2 },
      { id: "garbage", body: { nothing: true } },
    ]);
    expect(result).toMatchObject({
      outcome: "ok",
      ackAll: false,
      retryBatch: { retry: false },
      explicitAcks: ["good"],
    });
    expect(result.retryMessages.map((m) => m.msgId).sort()).toEqual(["bad", "garbage"]);
    expect((await attemptsOf(healthy.hook.id))[0]).toMatchObject({ status: "success", attempts: 1 });
    expect(await received(healthy.key)).toHaveLength(2);
    // Its claim was given back, so the retries (and then the dead-letter queue) find it.
    expect((await attemptsOf(bad.webhookId))[0]).toMatchObject({ status: "pending", leaseUntil: null });
  });

  it(
    "the dead-letter consumer records each attempt named as failed, and a webhook that retries gets its next " +
      "attempt",
    async () => {
      const { broken, bad } = await poisoned();
      const before = Date.now();
      const result = await runQueue("webhook-deliveries-dlq", [
        { id: "bad", body: { deliveryId: bad.id }, attempts: 4 },
        { id: "garbage", body: "not a job" },
      ]);
      expect(result).toMatchObject({ outcome: "ok", ackAll: true, retryMessages: [] });
      const [first, second] = await attemptsOf(broken.hook.id);
      expect(first).toMatchObject({
        id: bad.id,
        status: "failure",
        error: DEAD_LETTERED,
        attempt: 1,
        leaseUntil: null,
      });
      expect(second).toMatchObject({ status: "pending", attempt: 2, messageId: bad.messageId });
      expect(second.scheduledAt).toBeGreaterThanOrEqual(before + RETRY_SCHEDULE_SECONDS[0] * 1000);
      // A message for an attempt already finished changes nothing.
      await runQueue("webhook-deliveries-dlq", [{ id: "again", body: { deliveryId: bad.id } }]);
      expect(await attemptsOf(broken.hook.id)).toEqual([first, second]);
    },
  );
});
