import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { NO_SUCH_ID, PREFIXES, call, expectError, seedMember, seedOwner, type Actor, waitFor } from "../../harness";
import { expectNotFound } from "../../support/refusals";
import { createWebhook, insertDelivery, seedConversation, storedDelivery, webhooksPath } from "./fixtures";
import { bodyOf } from "../../support/api";
import { attemptsOf } from "../../queues/webhook-fixtures";

const redeliverPath = (inboxId: string, webhookId: string, recordId: string) =>
  `${webhooksPath(inboxId, webhookId)}records/${recordId}/redeliver/`;

/** A webhook pointing at the local receiver (so a real send stays on this machine), with one record per status. */
async function seedFinished(owner: Actor) {
  const { bot, inboxId, conversationId, messageIds } = await seedConversation(owner, 3);
  const hook = await createWebhook(owner, inboxId, { url: `${env.TEST_RECEIVER_URL}/ok/redeliver` });
  const base = { webhookId: hook.id, inboxId, chatbotId: bot.id, conversationId };
  const [failure, success, pending, sending] = await Promise.all(
    (["failure", "success", "pending", "sending"] as const).map((status, i) =>
      insertDelivery(owner, {
        ...base,
        messageId: messageIds[i],
        status,
        attempts: status === "pending" ? 0 : 1,
        leaseUntil: status === "sending" ? Date.now() + 60_000 : null,
      }),
    ),
  );
  return { bot, inboxId, hook, messageIds, failure, success, pending, sending };
}

describe("POST /inboxes/{inboxId}/webhooks/{webhookId}/records/{recordId}/redeliver/", () => {
  it.each(PREFIXES)(
    "adds the event's next attempt, pending and queued; the failed record stays as it was (%s)",
    async (prefix) => {
      const owner = await seedOwner();
      const { inboxId, hook, failure, messageIds } = await seedFinished(owner);
      const before = await storedDelivery(failure);
      const res = await owner.fetch("POST", redeliverPath(inboxId, hook.id, failure), undefined, { prefix });
      expect(res.status, await res.clone().text()).toBe(202);
      const record = await bodyOf<"POST /inboxes/{inboxId}/webhooks/{webhookId}/records/{recordId}/redeliver/">(res);
      expect(record).toMatchObject({
        message: messageIds[0],
        eventId: messageIds[0],
        attempt: 2,
        webhook: { id: hook.id, name: hook.name },
        status: "pending",
        attempts: 0,
        url: `${env.TEST_RECEIVER_URL}/ok/redeliver`,
        responseStatus: null,
        error: null,
        deliveredAt: null,
      });
      expect(record.id).not.toBe(failure);
      // The queue consumer sends it: to the receiver, which answers 200; the first failure is untouched.
      const sent = await waitFor(
        () => storedDelivery(record.id),
        (row) => row.status === "success",
      );
      expect(sent).toMatchObject({
        status: "success",
        attempt: 2,
        attempts: 1,
        messageId: messageIds[0],
        responseStatus: 200,
      });
      expect(await storedDelivery(failure)).toEqual(before);
    },
  );

  it("a successful event may be sent again too", async () => {
    const owner = await seedOwner();
    const { inboxId, hook, success } = await seedFinished(owner);
    const res = await owner.fetch("POST", redeliverPath(inboxId, hook.id, success));
    expect(res.status).toBe(202);
    expect(await res.json()).toMatchObject({ status: "pending", attempt: 2 });
  });

  it("409 for an event with an attempt pending or being sent, and for a disabled webhook; nothing added", async () => {
    const owner = await seedOwner();
    const { bot, inboxId, hook, pending, sending, failure, messageIds } = await seedFinished(owner);
    // An event whose failed first attempt has its retry scheduled.
    const retried = await insertDelivery(owner, {
      webhookId: hook.id,
      inboxId,
      chatbotId: bot.id,
      messageId: messageIds[4],
      status: "failure",
    });
    await insertDelivery(owner, {
      webhookId: hook.id,
      inboxId,
      chatbotId: bot.id,
      messageId: messageIds[4],
      attempt: 2,
      status: "pending",
      scheduledAt: Date.now() + 60_000,
    });
    const count = async () => (await attemptsOf(hook.id)).length;
    const records = await count();
    for (const id of [pending, sending, retried]) {
      const before = await storedDelivery(id);
      await expectError(await owner.fetch("POST", redeliverPath(inboxId, hook.id, id)), 409, "conflict");
      expect(await storedDelivery(id)).toEqual(before);
    }
    expect(await count()).toBe(records);
    expect((await owner.fetch("PATCH", webhooksPath(inboxId, hook.id), { isEnabled: false })).status).toBe(200);
    const before = await storedDelivery(failure);
    await expectError(await owner.fetch("POST", redeliverPath(inboxId, hook.id, failure)), 409, "conflict");
    expect(await storedDelivery(failure)).toEqual(before);
  });

  it("403 without webhook.manage", async () => {
    const owner = await seedOwner();
    const { inboxId, hook, failure } = await seedFinished(owner);
    await expectError(
      await (await seedMember(owner, ["inbox.manage", "conversation.manage"])).fetch(
        "POST",
        redeliverPath(inboxId, hook.id, failure),
      ),
      403,
      "permission_denied",
    );
    expect((await storedDelivery(failure)).status).toBe("failure");
  });

  it("404 for another webhook's record, another organization's, or an unknown one", async () => {
    const owner = await seedOwner();
    const mine = await seedFinished(owner);
    const otherHook = await createWebhook(owner, mine.inboxId);
    const theirs = await seedFinished(await seedOwner());
    await expectNotFound(await owner.fetch("POST", redeliverPath(mine.inboxId, otherHook.id, mine.failure)));
    await expectNotFound(await owner.fetch("POST", redeliverPath(mine.inboxId, mine.hook.id, theirs.failure)));
    await expectNotFound(await owner.fetch("POST", redeliverPath(theirs.inboxId, theirs.hook.id, theirs.failure)));
    await expectNotFound(await owner.fetch("POST", redeliverPath(mine.inboxId, mine.hook.id, NO_SUCH_ID)));
    expect((await storedDelivery(mine.failure)).status).toBe("failure");
    expect((await storedDelivery(theirs.failure)).status).toBe("failure");
  });

  it("401 without a key", async () => {
    await expectError(
      await call("POST", `/api/v1${redeliverPath(NO_SUCH_ID, NO_SUCH_ID, NO_SUCH_ID)}`),
      401,
      "not_authenticated",
    );
  });
});
