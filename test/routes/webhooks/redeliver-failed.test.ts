import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { NO_SUCH_ID, PREFIXES, call, expectError, seedMember, seedOwner, type Actor, waitFor } from "../../harness";
import { expectDenied, expectNotFound } from "../../support/refusals";
import { at, createWebhook, insertDelivery, seedConversation, webhooksPath } from "./fixtures";
import { bodyOf } from "../../support/api";
import { attemptsOf } from "../../queues/webhook-fixtures";

const redeliverFailedPath = (inboxId: string, webhookId: string) =>
  `${webhooksPath(inboxId, webhookId)}redeliver-failed/`;
const attempts = attemptsOf;

/**
 * A webhook (pointing at the local receiver, which answers 200) with six events: two failed on
 * 2026-01-10 (one of them twice), one failed on 2026-01-12, one that failed and then succeeded,
 * one that succeeded, and one whose retry is still pending.
 */
async function seedOutage(owner: Actor) {
  const { bot, inboxId, conversationId, messageIds: m } = await seedConversation(owner, 3);
  const hook = await createWebhook(owner, inboxId, { url: `${env.TEST_RECEIVER_URL}/ok/redeliver-failed` });
  const base = { webhookId: hook.id, inboxId, chatbotId: bot.id, conversationId };
  const day10 = at("2026-01-10");
  await insertDelivery(owner, { ...base, messageId: m[0], createdAt: day10 });
  await insertDelivery(owner, { ...base, messageId: m[0], attempt: 2, createdAt: day10 + 60_000 });
  await insertDelivery(owner, { ...base, messageId: m[1], createdAt: day10 + 1000 });
  await insertDelivery(owner, { ...base, messageId: m[2], createdAt: at("2026-01-12") });
  await insertDelivery(owner, { ...base, messageId: m[3], createdAt: day10 });
  await insertDelivery(owner, {
    ...base,
    messageId: m[3],
    attempt: 2,
    status: "success",
    responseStatus: 200,
    createdAt: day10 + 10_000,
  });
  await insertDelivery(owner, { ...base, messageId: m[4], status: "success", responseStatus: 200, createdAt: day10 });
  await insertDelivery(owner, { ...base, messageId: m[5], createdAt: day10 });
  await insertDelivery(owner, {
    ...base,
    messageId: m[5],
    attempt: 2,
    status: "pending",
    scheduledAt: Date.now() + 3_600_000,
    createdAt: day10 + 10_000,
  });
  return { bot, inboxId, hook, failed: [m[0], m[1], m[2]], messages: m };
}

describe("POST /inboxes/{inboxId}/webhooks/{webhookId}/redeliver-failed/", () => {
  it.each(PREFIXES)(
    "gives every event whose attempts all failed its next attempt, and the queue sends them (%s)",
    async (prefix) => {
      const owner = await seedOwner();
      const { inboxId, hook, failed } = await seedOutage(owner);
      const before = await attempts(hook.id);
      const res = await owner.fetch("POST", redeliverFailedPath(inboxId, hook.id), undefined, { prefix });
      expect(res.status, await res.clone().text()).toBe(202);
      expect(await res.json()).toEqual({ count: 3, since: null });
      const after = await waitFor(
        () => attempts(hook.id),
        (rows) => rows.filter((r) => r.status === "success").length === 5,
      );
      const added = after.filter((r) => !before.some((b) => b.id === r.id));
      expect(added.map((r) => r.messageId).sort()).toEqual([...failed].sort());
      for (const r of added) {
        expect(r).toMatchObject({
          status: "success",
          responseStatus: 200,
          attempts: 1,
          url: `${env.TEST_RECEIVER_URL}/ok/redeliver-failed`,
        });
        expect(r.attempt).toBe(r.messageId === failed[0] ? 3 : 2);
        expect(JSON.parse(r.requestBody!).id).toBe(r.messageId);
      }
      // Earlier attempts are as they were.
      for (const b of before) expect(after.find((r) => r.id === b.id)).toEqual(b);
      // Nothing left to redeliver: a second call adds nothing.
      expect(await (await owner.fetch("POST", redeliverFailedPath(inboxId, hook.id), {})).json()).toEqual({
        count: 0,
        since: null,
      });
    },
  );

  it("since narrows it to events first attempted at or after a time, in any of its forms", async () => {
    const owner = await seedOwner();
    const { inboxId, hook, failed } = await seedOutage(owner);
    const day12 = at("2026-01-12", "00:00");
    for (const since of ["2026-01-12", "2026-01-12T00:00:00Z", "2026-01-12T08:00:00+08:00", String(day12)]) {
      const res = await owner.fetch("POST", redeliverFailedPath(inboxId, hook.id), { since });
      expect(res.status, since).toBe(202);
      const body = await bodyOf<"POST /inboxes/{inboxId}/webhooks/{webhookId}/redeliver-failed/">(res);
      expect(body.since).toBe(String(day12));
      // The first call takes the one event; later ones find its attempt pending, or already successful.
      if (since === "2026-01-12") expect(body.count).toBe(1);
      else expect(body.count).toBe(0);
    }
    const added = (await attempts(hook.id)).filter((r) => r.attempt === 2 && r.messageId === failed[2]);
    expect(added).toHaveLength(1);
    const later = await owner.fetch("POST", redeliverFailedPath(inboxId, hook.id), { since: "2027-01-01" });
    expect(await later.json()).toEqual({ count: 0, since: String(at("2027-01-01", "00:00")) });
  });

  it("400 naming since for a time it cannot read, and nothing is written", async () => {
    const owner = await seedOwner();
    const { inboxId, hook } = await seedOutage(owner);
    const before = await attempts(hook.id);
    for (const since of [
      "yesterday",
      "2026-13-01",
      "2026-01-12T25:00:00Z",
      "2026-01-12T08:00:00",
      "",
      1768176000000,
      null,
    ]) {
      const err = await expectError(
        await owner.fetch("POST", redeliverFailedPath(inboxId, hook.id), { since }),
        400,
        "invalid",
      );
      expect(Object.keys(err.errors!), JSON.stringify(since)).toEqual(["since"]);
    }
    await expectError(await owner.fetch("POST", redeliverFailedPath(inboxId, hook.id), [1]), 400);
    expect(await attempts(hook.id)).toEqual(before);
  });

  it("409 for a disabled webhook, and nothing is written", async () => {
    const owner = await seedOwner();
    const { inboxId, hook } = await seedOutage(owner);
    expect((await owner.fetch("PATCH", webhooksPath(inboxId, hook.id), { isEnabled: false })).status).toBe(200);
    const before = await attempts(hook.id);
    await expectError(await owner.fetch("POST", redeliverFailedPath(inboxId, hook.id)), 409, "conflict");
    expect(await attempts(hook.id)).toEqual(before);
  });

  it("403 without webhook.manage, and nothing is written; 202 with it", async () => {
    const owner = await seedOwner();
    const { inboxId, hook } = await seedOutage(owner);
    const before = await attempts(hook.id);
    const member = await seedMember(owner, ["inbox.manage", "conversation.manage", "chatbot.manage"]);
    await expectDenied(await member.fetch("POST", redeliverFailedPath(inboxId, hook.id)));
    expect(await attempts(hook.id)).toEqual(before);
    const manager = await seedMember(owner, ["webhook.manage"]);
    expect((await manager.fetch("POST", redeliverFailedPath(inboxId, hook.id))).status).toBe(202);
  });

  it(
    "404 for another organization's webhook or inbox, a webhook under another inbox, or an unknown one; theirs " +
      "untouched",
    async () => {
      const owner = await seedOwner();
      const theirs = await seedOutage(await seedOwner());
      const mine = await seedConversation(owner, 1);
      const before = await attempts(theirs.hook.id);
      await expectNotFound(await owner.fetch("POST", redeliverFailedPath(theirs.inboxId, theirs.hook.id)));
      await expectNotFound(await owner.fetch("POST", redeliverFailedPath(mine.inboxId, theirs.hook.id)));
      await expectNotFound(await owner.fetch("POST", redeliverFailedPath(mine.inboxId, NO_SUCH_ID)));
      expect(await attempts(theirs.hook.id)).toEqual(before);
    },
  );

  it("401 without a key", async () => {
    await expectError(
      await call("POST", `/api/v1${redeliverFailedPath(NO_SUCH_ID, NO_SUCH_ID)}`),
      401,
      "not_authenticated",
    );
  });
});
