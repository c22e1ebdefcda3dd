import { describe, expect, it } from "vitest";
import { PREFIXES, call, data, expectError, seedMember, seedOwner } from "../../harness";
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

describe("DELETE /inboxes/{inboxId}/webhooks/{webhookId}/", () => {
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
