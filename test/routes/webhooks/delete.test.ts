import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { env } from "cloudflare:workers";
import {
  PREFIXES,
  call,
  countInParts,
  data,
  db,
  expectError,
  fromEveryPart,
  parts,
  seedMember,
  seedOwner,
  waitFor,
} from "../../harness";
import { webhookDeliveries } from "../../../src/db/schema";
import { SHARDS, shardDb } from "../../../src/services/shards";
import { deleteWebhook } from "../../../src/services/webhooks/config";
import { createChatbot } from "../../fixtures/chatbots";
import { deletingAfter, whileBatchingAny } from "../../support/races";
import { purgedThrough } from "../../support/purges";
import { runPurges } from "../../../src/services/purges";
import { expectDenied, expectNotFound } from "../../support/refusals";
import {
  createWebhook,
  insertDelivery,
  ownersWebhook,
  seedConversation,
  storedDelivery,
  storedWebhook,
  webhooksPath,
  webhooksOfTwoOrganizations,
} from "./fixtures";

/** The shards' bindings, where the parts of an organization's data plane are. */
const shards = () => SHARDS.map((name) => shardDb(env, name));

describe("DELETE /inboxes/{inboxId}/webhooks/{webhookId}/", () => {
  it("a delivery queued as the webhook is deleted goes with it, even with the purge run before it went", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const hook = await createWebhook(owner, bot.defaultInbox!.id);
    const deliveries = () => countInParts(owner.organizationId, "webhook_deliveries", "webhook_id = ?", hook.id);
    // After the delete wrote its purge, before it deletes the webhook: the housekeeping runs the purge (nothing to
    // take yet), then a message in its inbox queues a delivery to the webhook, which still exists.
    const queued = async () => {
      await purgedThrough(owner.organizationId, "webhook", hook.id);
      const asked = { message: { content: "hello" } };
      expect((await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, asked, { settings: {} })).status).toBe(200);
    };
    const { organizationId } = owner;
    await deleteWebhook(deletingAfter(db(), queued), await parts(organizationId), organizationId, hook.id);
    expect(await deliveries()).toBeGreaterThan(0);
    await purgedThrough(organizationId, "webhook", hook.id);
    expect(await deliveries()).toBe(0);
  });

  it("a delivery stored after the delete and its purges' runs goes once the consumer finds the hook gone", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const inboxId = bot.defaultInbox!.id;
    const hook = await createWebhook(owner, inboxId);
    const { organizationId } = owner;
    const records = () =>
      fromEveryPart(organizationId, (part) =>
        part.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, hook.id)),
      );
    // After the reply read its inbox's webhooks, before the batch storing it (with its outbox): the whole delete, and
    // the housekeeping's runs of both its purges.
    const deleted = async () => {
      expect((await owner.fetch("DELETE", webhooksPath(inboxId, hook.id))).status).toBe(204);
      await purgedThrough(organizationId, "webhook", hook.id);
    };
    const writesDeliveries = (sql: string[]) => sql.some((s) => /^insert into "webhook_deliveries"/i.test(s));
    const asked = { message: { content: "hello" } };
    const res = await whileBatchingAny(shards(), writesDeliveries, deleted, () =>
      owner.fetch("POST", `/chatbots/${bot.id}/completions/`, asked, { settings: {} }),
    );
    expect(res.status, await res.clone().text()).toBe(200);
    // The queue's consumer reads the webhook to send it (no read of its own for this): gone, it writes its purge.
    const [record] = await waitFor(records, (rows) => rows[0]?.status === "failure");
    expect(record).toMatchObject({ error: "The webhook was deleted.", responseStatus: null });
    await purgedThrough(organizationId, "webhook", hook.id);
    expect(await records()).toEqual([]);
  });

  it.each(PREFIXES)("deletes the webhook with its delivery records (%s)", async (prefix) => {
    const owner = await seedOwner();
    const { bot, inboxId, messageIds } = await seedConversation(owner, 1);
    const hook = await createWebhook(owner, inboxId);
    const record = await insertDelivery(owner, {
      webhookId: hook.id,
      inboxId,
      chatbotId: bot.id,
      messageId: messageIds[1],
    });
    const res = await owner.fetch("DELETE", webhooksPath(inboxId, hook.id), undefined, { prefix });
    expect(res.status).toBe(204);
    expect(await storedWebhook(hook.id)).toBeUndefined();
    await expectNotFound(await owner.fetch("GET", webhooksPath(inboxId, hook.id)));
    // Its records leave every list at once and the housekeeping cron's purge deletes them (services/purges.ts; other
    // files' purges in the shared database may come first).
    await expectNotFound(await owner.fetch("GET", `/chatbots/${bot.id}/webhook-records/${record}/`));
    const plane = await data(owner.organizationId);
    for (let run = 0; run < 20 && (await storedDelivery(record)); run++) await runPurges(plane, Date.now());
    expect(await storedDelivery(record)).toBeUndefined();
  });

  it("403 without webhook.manage", async () => {
    const { owner, hook, path } = await ownersWebhook();
    await expectDenied(await (await seedMember(owner, ["inbox.manage"])).fetch("DELETE", path));
    expect(await storedWebhook(hook.id)).toBeDefined();
  });

  it("404 for another organization's webhook, or one named under another inbox", async () => {
    const owner = await seedOwner();
    const { theirInbox, theirs, other, hook } = await webhooksOfTwoOrganizations(owner);
    await expectNotFound(await owner.fetch("DELETE", webhooksPath(theirInbox.id, theirs.id)));
    await expectNotFound(await owner.fetch("DELETE", webhooksPath(other.id, hook.id)));
    expect(await storedWebhook(theirs.id)).toBeDefined();
    expect(await storedWebhook(hook.id)).toBeDefined();
  });

  it("401 without a key", async () => {
    await expectError(
      await call("DELETE", `/api/v1${webhooksPath(crypto.randomUUID(), crypto.randomUUID())}`),
      401,
      "not_authenticated",
    );
  });
});
