import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { addAttempts } from "../../src/services/webhooks/redelivery";
import { parts, seedOwner, type Actor } from "../harness";
import { createChatbot } from "../fixtures/chatbots";
import { storedWebhook, type WebhookRecord } from "../routes/webhooks/fixtures";
import {
  attemptsOf,
  consumeAt,
  received,
  setMode,
  switchedWebhook,
  visitorMessages,
  waitFor,
} from "./webhook-fixtures";
import { client } from "../../src/db/prepared";
import { dataDbs } from "../../src/services/shards";
import { bodyOf } from "../support/api";

const DAY = 86_400_000;

/** A webhook (no retries) whose first event failed at the receiver, through the real queue; and when. */
async function failingWebhook(owner: Actor) {
  const bot = await createChatbot(owner);
  const { key, hook } = await switchedWebhook(owner, bot.defaultInbox!.id, "down");
  await visitorMessages(owner, bot.id, 1);
  const [first] = await waitFor(
    () => attemptsOf(hook.id),
    (rows) => rows[0]?.status === "failure",
  );
  // The webhook's run of failures is written before the attempt's ending (another database): there already.
  const since = (await storedWebhook(hook.id)).failingSince!;
  expect(since).toBeGreaterThanOrEqual(first.createdAt);
  return { bot, key, hook, since };
}

/** At `now`, every event of the webhook (or only the failed ones, as redeliver-failed does) is sent again by the
 * consumer. */
async function sendAgainAt(owner: Actor, hook: WebhookRecord, now: number, onlyFailed = true) {
  const scope = { organizationId: owner.organizationId, webhookId: hook.id, url: hook.url, onlyFailed };
  // In each part of the organization's data plane, as the route does: an event's attempts are in its conversation's.
  const ids: string[] = [];
  for (const part of await parts(owner.organizationId)) ids.push(...(await addAttempts(part, scope, now)));
  expect(ids.length).toBeGreaterThan(0);
  await consumeAt(
    ids.map((id) => ({ id })),
    now,
  );
}

describe("a webhook whose every delivery failed for 3 days is disabled, with why", () => {
  it(
    "still failing after 2 days stays enabled; after 3 days it is disabled, says why, and new messages send it " +
      "nothing",
    async () => {
      const owner = await seedOwner();
      const { bot, hook, since } = await failingWebhook(owner);
      await sendAgainAt(owner, hook, since + 2 * DAY);
      expect(await storedWebhook(hook.id)).toMatchObject({ isEnabled: true, failingSince: since, disabledAt: null });

      const at = since + 3 * DAY + 1000;
      await sendAgainAt(owner, hook, at);
      const row = await storedWebhook(hook.id);
      expect(row.isEnabled).toBe(false);
      expect(row.disabledAt).toBeGreaterThanOrEqual(at);
      const record = await bodyOf<"GET /inboxes/{inboxId}/webhooks/{webhookId}/">(
        await owner.fetch("GET", `/inboxes/${bot.defaultInbox!.id}/webhooks/${hook.id}/`),
      );
      expect(record).toMatchObject({ isEnabled: false, disabledAt: String(row.disabledAt) });
      expect(record.disabledReason).toBe(
        `Every delivery failed from ${new Date(since).toISOString().slice(0, 19)}Z on, for more than 3 days; ` +
          `the last: The receiver answered 503.`,
      );

      const attempts = (await attemptsOf(hook.id)).length;
      await visitorMessages(owner, bot.id, 1);
      await new Promise((r) => setTimeout(r, 300));
      expect(await attemptsOf(hook.id)).toHaveLength(attempts);
    },
  );

  it("one success ends the run of failures: failing again later starts a new 3 days", async () => {
    const owner = await seedOwner();
    const { key, hook, since } = await failingWebhook(owner);
    await setMode(key, "ok");
    await sendAgainAt(owner, hook, since + 2 * DAY);
    expect((await storedWebhook(hook.id)).failingSince).toBeNull();
    await setMode(key, "down");
    const restarted = since + 2 * DAY + 3_600_000;
    await sendAgainAt(owner, hook, restarted, false);
    expect((await storedWebhook(hook.id)).failingSince).toBeGreaterThanOrEqual(restarted);
    await sendAgainAt(owner, hook, since + 3 * DAY + 1000, false);
    expect(await storedWebhook(hook.id)).toMatchObject({ isEnabled: true, disabledAt: null });
    await sendAgainAt(owner, hook, restarted + 3 * DAY + 1000, false);
    expect((await storedWebhook(hook.id)).isEnabled).toBe(false);
  });

  it("a health write that fails loses no outcome: the attempt is kept, the next completion writes it", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const { hook } = await switchedWebhook(owner, bot.defaultInbox!.id, "down");
    // The control plane refuses this webhook's health for a while (as a D1 outage of `DB` alone would).
    const trigger = `"health_down_${hook.id}"`;
    await env.DB.prepare(
      `CREATE TRIGGER ${trigger} BEFORE UPDATE ON webhooks WHEN NEW.id = '${hook.id}' ` +
        "BEGIN SELECT RAISE(ABORT, 'health write refused'); END",
    ).run();
    const errors = vi.spyOn(console, "error");
    try {
      await visitorMessages(owner, bot.id, 1);
      const [first] = await waitFor(
        () => attemptsOf(hook.id),
        (rows) => rows[0]?.status === "failure",
      );
      expect(first.responseStatus).toBe(503);
      expect(await storedWebhook(hook.id)).toMatchObject({ failingSince: null, isEnabled: true });
      // The batch of deliveries went through: its health is logged as not written, the batch not failed.
      expect(errors.mock.calls.flat().join("\n")).not.toMatch(/webhook delivery batch failed/);
    } finally {
      errors.mockRestore();
      await env.DB.prepare(`DROP TRIGGER ${trigger}`).run();
    }
    const again = Date.now();
    await sendAgainAt(owner, hook, again);
    expect((await storedWebhook(hook.id)).failingSince).toBeGreaterThanOrEqual(again);
  });

  it(
    "health is written before the outcome: an attempt whose outcome is not written has its health, and is made " +
      "again",
    async () => {
      const owner = await seedOwner();
      const bot = await createChatbot(owner);
      const { key, hook } = await switchedWebhook(owner, bot.defaultInbox!.id, "down");
      // Every data plane refuses to record how this webhook's attempts ended (as a consumer stopped between the two
      // batches would leave them): claiming and giving back still work.
      const trigger = `"outcome_down_${hook.id}"`;
      const planes = dataDbs(env).map(client);
      for (const plane of planes)
        await plane
          .prepare(
            `CREATE TRIGGER ${trigger} BEFORE UPDATE ON webhook_deliveries WHEN NEW.webhook_id = '${hook.id}' ` +
              "AND NEW.status IN ('success', 'failure') BEGIN SELECT RAISE(ABORT, 'outcome write refused'); END",
          )
          .run();
      const errors = vi.spyOn(console, "error").mockImplementation(() => {});
      try {
        await visitorMessages(owner, bot.id, 1);
        // The claim is given back after the health is written: both are waited for (the queue's retry is 5 s later).
        const { since, attempt } = await waitFor(
          async () => ({ since: (await storedWebhook(hook.id)).failingSince, attempt: (await attemptsOf(hook.id))[0] }),
          (read) => read.since !== null && read.attempt?.status === "pending",
        );
        expect((await received(key)).length).toBeGreaterThanOrEqual(1);
        expect(attempt).toMatchObject({ status: "pending", attempts: 0, leaseUntil: null });
        expect(since).toBeGreaterThanOrEqual(attempt.createdAt);
      } finally {
        errors.mockRestore();
        for (const plane of planes) await plane.prepare(`DROP TRIGGER ${trigger}`).run();
      }
      // The queue's retry makes the attempt again and records it this time.
      const [done] = await waitFor(
        () => attemptsOf(hook.id),
        (rows) => rows[0]?.status === "failure",
        30_000,
      );
      expect(done.responseStatus).toBe(503);
    },
  );
});
