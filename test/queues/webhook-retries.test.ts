import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { seedOwner } from "../harness";
import { createChatbot } from "../fixtures/chatbots";
import { RETRY_SCHEDULE_SECONDS } from "../../src/services/webhooks/retries";
import { deliveryEventId } from "../../src/services/records/webhook-deliveries";
import {
  attemptsOf,
  consumeAt,
  received,
  setMode,
  switchedWebhook,
  visitorMessages,
  waitFor,
  type Attempt,
} from "./webhook-fixtures";
import { bodyOf } from "../support/api";

const HOUR = 3_600_000;

/** Attempts grouped by event, each list in attempt order. */
const byEvent = (attempts: Attempt[]) => {
  const events = new Map<string, Attempt[]>();
  for (const a of attempts) events.set(deliveryEventId(a), [...(events.get(deliveryEventId(a)) ?? []), a]);
  return events;
};

/**
 * Plays the retry clock: jumps to the next pending attempt's due time and runs the consumer on what is
 * due, until nothing is pending; `onTick(now)` runs before each step (to bring the receiver back).
 * Returns the clock at the end.
 */
async function playClock(webhookId: string, now: number, onTick: (now: number) => Promise<void> = async () => {}) {
  for (let step = 0; step < 50; step++) {
    const pending = (await attemptsOf(webhookId)).filter((a) => a.status === "pending");
    if (!pending.length) return now;
    now = Math.max(now, Math.min(...pending.map((a) => a.scheduledAt)));
    await onTick(now);
    await consumeAt(
      pending.filter((a) => a.scheduledAt <= now),
      now,
    );
  }
  throw new Error("the attempts never settled");
}

/** Until the real consumer has made attempt 1 of `events` events (and scheduled attempt 2 when retrying). */
const firstAttempts = (webhookId: string, events: number, retrying: boolean) =>
  waitFor(
    () => attemptsOf(webhookId),
    (rows) =>
      rows.filter((a) => a.attempt === 1 && a.status === "failure").length === events &&
      (!retrying || rows.filter((a) => a.attempt === 2).length === events),
  );

describe("retryFailedDeliveries: failed deliveries retried on a schedule (CONTRACT section 8)", () => {
  it(
    "a receiver down for an hour gets every event once it is back: none lost, none twice, every 503 kept as its " +
      "own attempt",
    async () => {
      const EVENTS = 6;
      const owner = await seedOwner();
      const bot = await createChatbot(owner);
      const { key, hook } = await switchedWebhook(owner, bot.defaultInbox!.id, "down", { retryFailedDeliveries: true });
      await visitorMessages(owner, bot.id, EVENTS);
      // The real queue consumer makes every first attempt while the receiver is down.
      const start = Math.min(...(await firstAttempts(hook.id, EVENTS, true)).map((a) => a.createdAt));
      const backAt = start + HOUR;
      let back = false;
      const end = await playClock(hook.id, Date.now(), async (now) => {
        if (!back && now >= backAt) await setMode(key, "ok");
        back ||= now >= backAt;
      });

      const events = byEvent(await attemptsOf(hook.id));
      expect(events.size).toBe(EVENTS);
      for (const [eventId, attempts] of events) {
        // 0 s, 10 s, 70 s, 6 min, 36 min fail; 2 h 36 min, the first try after the hour, succeeds.
        expect(attempts.map((a) => [a.attempt, a.status, a.responseStatus])).toEqual([
          [1, "failure", 503],
          [2, "failure", 503],
          [3, "failure", 503],
          [4, "failure", 503],
          [5, "failure", 503],
          [6, "success", 200],
        ]);
        for (let i = 1; i < attempts.length; i++)
          expect(attempts[i].scheduledAt - attempts[i - 1].deliveredAt!).toBe(RETRY_SCHEDULE_SECONDS[i - 1] * 1000);
        for (const a of attempts) expect(JSON.parse(a.requestBody!).id).toBe(eventId);
      }
      // The receiver saw each event six times, always with the same id, and answered 200 to one of them.
      const requests = await received(key);
      expect(requests).toHaveLength(EVENTS * 6);
      const delivered = requests.filter((r) => r.status === 200).map((r) => JSON.parse(r.body).id);
      expect(delivered.sort()).toEqual([...events.keys()].sort());
      for (const r of requests) expect(r.headers["webhook-id"]).toBe(JSON.parse(r.body).id);
      expect(end - backAt).toBeLessThan(2 * HOUR);

      // The records show the outage: per event, five 503s and the success, newest first.
      const [eventId] = events.keys();
      const res = await owner.fetch(
        "GET",
        `/inboxes/${bot.defaultInbox!.id}/webhooks/${hook.id}/records/?eventId=${eventId}`,
      );
      const page = await bodyOf<"GET /inboxes/{inboxId}/webhooks/{webhookId}/records/">(res);
      expect(page.results.map((r) => [r.attempt, r.statusCode, r.eventId])).toEqual(
        [6, 5, 4, 3, 2, 1].map((n) => [n, n === 6 ? 200 : 503, eventId]),
      );
    },
  );

  it("a receiver that never comes back: nine attempts over more than 24 hours, then the event is failed", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const { hook } = await switchedWebhook(owner, bot.defaultInbox!.id, "down", { retryFailedDeliveries: true });
    await visitorMessages(owner, bot.id, 1);
    await firstAttempts(hook.id, 1, true);
    await playClock(hook.id, Date.now());
    const attempts = await attemptsOf(hook.id);
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(attempts.every((a) => a.status === "failure")).toBe(true);
    expect(attempts[8].deliveredAt! - attempts[0].deliveredAt!).toBeGreaterThan(24 * HOUR);
  });

  it("a slow receiver (past the time-out), one closing the connection: failures, retried until answered", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const inbox = bot.defaultInbox!.id;
    const slow = await switchedWebhook(owner, inbox, "ok", { retryFailedDeliveries: true });
    await setMode(slow.key, "slow", 3000); // WEBHOOK_TIMEOUT_MS is 1,500 in the tests
    const closing = await switchedWebhook(owner, inbox, "close", { retryFailedDeliveries: true });
    await visitorMessages(owner, bot.id, 1);
    const [slowFirst] = await firstAttempts(slow.hook.id, 1, true);
    const [closedFirst] = await firstAttempts(closing.hook.id, 1, true);
    expect(slowFirst.error).toBe("timed out after 1.5 s");
    expect(closedFirst).toMatchObject({
      responseStatus: null,
      error: expect.stringMatching(/^the connection to 127\.0\.0\.1:\d+ was closed before an answer$/),
    });
    await setMode(slow.key, "ok");
    await setMode(closing.key, "ok");
    const now = Date.now() + 10_000;
    for (const { hook } of [slow, closing]) await playClock(hook.id, now);
    for (const { hook } of [slow, closing])
      expect((await attemptsOf(hook.id)).map((a) => a.status)).toEqual(["failure", "success"]);
  });

  it("without it (the default), a failure is recorded once and not retried (spec delivery rule 3)", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const { key, hook } = await switchedWebhook(owner, bot.defaultInbox!.id, "down");
    expect(hook.retryFailedDeliveries).toBe(false);
    await visitorMessages(owner, bot.id, 1);
    await firstAttempts(hook.id, 1, false);
    await new Promise((r) => setTimeout(r, 500));
    expect(await attemptsOf(hook.id)).toHaveLength(1);
    expect(await received(key)).toHaveLength(1);
  });

  it("a consumer slower than its lease writes nothing over the attempt another consumer took again", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const { key, hook } = await switchedWebhook(owner, bot.defaultInbox!.id, "down", { retryFailedDeliveries: true });
    await visitorMessages(owner, bot.id, 1);
    const [, second] = await firstAttempts(hook.id, 1, true);
    // The first consumer claims attempt 2 and waits on the receiver (a time-out longer than the tests' 1.5 s).
    await setMode(key, "hang");
    const now = second.scheduledAt;
    const slow = consumeAt([second], now, { WEBHOOK_TIMEOUT_MS: "4000" });
    await waitFor(
      () => received(key),
      (r) => r.length === 2,
    );
    // Past its 60 s lease on the clock, another consumer claims the attempt again and gets it through.
    await setMode(key, "ok");
    await consumeAt([second], now + 61_000);
    // The first one times out: its failure (and the attempt 3 it would add) is not written over the success.
    await slow;
    const attempts = await attemptsOf(hook.id);
    expect(attempts.map((a) => [a.attempt, a.status, a.responseStatus])).toEqual([
      [1, "failure", 503],
      [2, "success", 200],
    ]);
    expect(attempts[1]).toMatchObject({ attempts: 1, error: null, leaseUntil: null });
    expect(await received(key)).toHaveLength(3);
  });

  it("a failure no retry can mend (the URL refused at delivery) is not retried", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const to = encodeURIComponent("http://169.254.169.254/latest/meta-data/");
    const res = await owner.fetch("POST", `/inboxes/${bot.defaultInbox!.id}/webhooks/`, {
      name: "redirects",
      direction: "incoming",
      url: `${env.TEST_RECEIVER_URL}/redirect/${crypto.randomUUID()}?to=${to}`,
      retryFailedDeliveries: true,
    });
    const hook = await bodyOf<"POST /inboxes/{inboxId}/webhooks/">(res);
    await visitorMessages(owner, bot.id, 1);
    const [attempt] = await firstAttempts(hook.id, 1, false);
    expect(attempt.error).toMatch(/^Redirect refused/);
    await new Promise((r) => setTimeout(r, 300));
    expect(await attemptsOf(hook.id)).toHaveLength(1);
  });
});
