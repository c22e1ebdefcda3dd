import { describe, expect, it } from "vitest";
import { PREFIXES, call, expectError, seedMember, seedOwner } from "../../harness";
import { expectDenied, expectNotFound } from "../../support/refusals";
import {
  HOOK_URL,
  createInbox,
  createWebhook,
  storedWebhook,
  storedWebhooks,
  webhooksOfTwoOrganizations,
  webhooksPath,
} from "./fixtures";
import { bodyOf } from "../../support/api";

// Fails without a message (a filter on none); a template printing `message.content | tojson` would render null instead.
const MESSAGES_ONLY_TEMPLATE = '{"text": {{ message.content | upper | tojson }}}';
const BOTH_TEMPLATE =
  '{% if event == "conversation.updated" %}{"why": {{ reason | tojson }}, "was": ' +
  '{{ changes.progress_status[0] | tojson }}}{% else %}{"text": {{ message.content | tojson }}}{% endif %}';
// The API's names (`changes.progressStatus`) are not the payload's: the sample event finds nothing there.
const API_NAMES_TEMPLATE = BOTH_TEMPLATE.replace("changes.progress_status", "changes.progressStatus");

describe("webhooks' conversationEvents (lifecycle events, CONTRACT section 18)", () => {
  it.each(PREFIXES)(
    "is false by default, set on create, shown by get and list, switched by PATCH (%s)",
    async (prefix) => {
      const owner = await seedOwner();
      const inbox = await createInbox(owner);
      const plain = await createWebhook(owner, inbox.id);
      expect(plain.conversationEvents).toBe(false);
      const res = await owner.fetch(
        "POST",
        webhooksPath(inbox.id),
        { name: "Lifecycle", direction: "incoming", url: HOOK_URL, conversation_events: true },
        { prefix },
      );
      expect(res.status, await res.clone().text()).toBe(201);
      const opted = await bodyOf<"POST /inboxes/{inboxId}/webhooks/">(res);
      expect(opted).toMatchObject({ direction: "incoming", conversationEvents: true });
      expect((await storedWebhook(opted.id)).conversationEvents).toBe(true);
      expect(
        await (await owner.fetch("GET", webhooksPath(inbox.id, opted.id), undefined, { prefix })).json(),
      ).toMatchObject({ conversationEvents: true });
      const list = await bodyOf<"GET /inboxes/{inboxId}/webhooks/">(
        await owner.fetch("GET", webhooksPath(inbox.id), undefined, { prefix }),
      );
      expect(Object.fromEntries(list.results.map((w) => [w.id, w.conversationEvents]))).toEqual({
        [plain.id]: false,
        [opted.id]: true,
      });

      expect(
        await (
          await owner.fetch("PATCH", webhooksPath(inbox.id, plain.id), { conversationEvents: true }, { prefix })
        ).json(),
      ).toMatchObject({ conversationEvents: true });
      expect(
        await (
          await owner.fetch("PATCH", webhooksPath(inbox.id, opted.id), { conversationEvents: false }, { prefix })
        ).json(),
      ).toMatchObject({ conversationEvents: false });
      expect((await storedWebhook(plain.id)).conversationEvents).toBe(true);
      expect((await storedWebhook(opted.id)).conversationEvents).toBe(false);
      // Left out of a PATCH, it stays.
      expect(
        await (await owner.fetch("PATCH", webhooksPath(inbox.id, plain.id), { name: "Renamed" }, { prefix })).json(),
      ).toMatchObject({ conversationEvents: true });
    },
  );

  it("a custom template that tells the kinds apart by `event` may opt in", async () => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    const hook = await createWebhook(owner, inbox.id, {
      templatePreset: "custom",
      customTemplate: BOTH_TEMPLATE,
      conversationEvents: true,
    });
    expect(hook).toMatchObject({ templatePreset: "custom", conversationEvents: true });
  });

  it.each([
    [{ conversationEvents: "yes" }, "conversationEvents", "expected boolean"],
    [{ conversationEvents: 1 }, "conversationEvents", "expected boolean"],
    [{ conversationEvents: true, direction: "receive" }, "conversationEvents", "Only webhooks that push"],
    [{ conversationEvents: true, templatePreset: "genesys_cloud" }, "conversationEvents", "genesys_cloud"],
    [
      { conversationEvents: true, templatePreset: "custom", customTemplate: MESSAGES_ONLY_TEMPLATE },
      "customTemplate",
      "With a lifecycle event",
    ],
    [
      { conversationEvents: true, templatePreset: "custom", customTemplate: API_NAMES_TEMPLATE },
      "customTemplate",
      "With a lifecycle event",
    ],
  ])(
    "bad input %j on create is a 400 naming %s with a clear detail, and writes nothing",
    async (extra, field, words) => {
      const owner = await seedOwner();
      const inbox = await createInbox(owner);
      const err = await expectError(
        await owner.fetch("POST", webhooksPath(inbox.id), {
          name: "x",
          direction: "outgoing",
          url: HOOK_URL,
          ...extra,
        }),
        400,
        "invalid",
      );
      expect(Object.keys(err.errors!)).toContain(field);
      expect(JSON.stringify(err)).toContain(words);
      expect(await storedWebhooks(inbox.id)).toHaveLength(0);
    },
  );

  it("PATCH refuses what cannot send lifecycle events, judged on the stored values, and changes nothing", async () => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    const opted = await createWebhook(owner, inbox.id, { conversationEvents: true });
    const custom = await createWebhook(owner, inbox.id, {
      templatePreset: "custom",
      customTemplate: MESSAGES_ONLY_TEMPLATE,
    });
    const receiving = await createWebhook(owner, inbox.id, { direction: "receive" });
    const cases: [string, Record<string, unknown>, string][] = [
      [opted.id, { templatePreset: "genesys_cloud" }, "conversationEvents"],
      [opted.id, { direction: "receive" }, "conversationEvents"],
      [opted.id, { conversationEvents: null }, "conversationEvents"],
      [receiving.id, { conversationEvents: true }, "conversationEvents"],
      // The stored template renders messages only: turning lifecycle events on for it is refused, saying why.
      [custom.id, { conversationEvents: true }, "conversationEvents"],
    ];
    for (const [id, body, field] of cases) {
      const err = await expectError(await owner.fetch("PATCH", webhooksPath(inbox.id, id), body), 400, "invalid");
      expect(Object.keys(err.errors!), JSON.stringify(body)).toContain(field);
    }
    expect(await storedWebhook(opted.id)).toMatchObject({
      templatePreset: "service_standard",
      direction: "outgoing",
      conversationEvents: true,
    });
    expect((await storedWebhook(custom.id)).conversationEvents).toBe(false);
    expect((await storedWebhook(receiving.id)).conversationEvents).toBe(false);
    // With a template that handles both, the same change goes through.
    const fixed = await owner.fetch("PATCH", webhooksPath(inbox.id, custom.id), {
      conversationEvents: true,
      customTemplate: BOTH_TEMPLATE,
    });
    expect(fixed.status, await fixed.clone().text()).toBe(200);
  });

  it("403 without webhook.manage, 404 for another organization's webhook, 401 without a key: no change", async () => {
    const owner = await seedOwner();
    const { theirInbox, theirs, mine, hook } = await webhooksOfTwoOrganizations(owner);
    const member = await seedMember(owner, ["inbox.manage", "chatbot.manage"]);
    await expectDenied(await member.fetch("PATCH", webhooksPath(mine.id, hook.id), { conversationEvents: true }));
    await expectNotFound(
      await owner.fetch("PATCH", webhooksPath(theirInbox.id, theirs.id), { conversationEvents: true }),
    );
    await expectError(
      await call("PATCH", `/api/v1${webhooksPath(mine.id, hook.id)}`, { conversationEvents: true }),
      401,
      "not_authenticated",
    );
    expect((await storedWebhook(hook.id)).conversationEvents).toBe(false);
    expect((await storedWebhook(theirs.id)).conversationEvents).toBe(false);
  });
});
