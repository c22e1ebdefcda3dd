// What a channel keeps once its rows have done their work (services/channels/retention.ts): taken-in events for as
// long as a platform may send them again, sent replies for a month; pending and failed ones for good. The rows of
// this test's inbox are aged (their times moved back) rather than the clock moved on: the suite's other channel tests
// share the database, and their fresh rows must stay.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { client } from "../../src/db/prepared";
import { DELIVERY_KEEP_MS, EVENT_KEEP_MS, pruneChannelRows } from "../../src/services/channels/retention";
import { fromEveryPart, parts } from "../harness";
import { eventually, lastIs, messagesWhen, onlyConversation } from "./support";
import { telegram, telegramInbox, textUpdate } from "./telegram-support";

const DAY_MS = 86_400_000;

/**
 * Moves the inbox's event and delivery times `ms` back, as if they had happened that long ago: in every part, as the
 * events are the organization's (its first part) and the deliveries their conversation's; the channel's connection
 * (in `DB`) with them, which came first.
 */
async function age(organizationId: string, inboxId: string, ms: number) {
  await env.DB.prepare("UPDATE inbox_channels SET created_at = created_at - ?2 WHERE inbox_id = ?1")
    .bind(inboxId, ms)
    .run();
  for (const part of await parts(organizationId)) {
    const d1 = client(part);
    await d1.batch([
      d1.prepare("UPDATE channel_events SET received_at = received_at - ?2 WHERE inbox_id = ?1").bind(inboxId, ms),
      d1
        .prepare(
          "UPDATE channel_deliveries SET sent_at = sent_at - ?2, next_attempt_at = next_attempt_at - ?2, " +
            "created_at = created_at - ?2 WHERE inbox_id = ?1",
        )
        .bind(inboxId, ms),
    ]);
  }
}

/** The inbox's channel rows, in whichever part holds them. */
async function rowsOf(organizationId: string, inboxId: string) {
  const rows = (table: string, key: string) =>
    fromEveryPart(organizationId, async (part) => {
      const query = `SELECT ${key} AS id, status FROM ${table} WHERE inbox_id = ?1`;
      return (await client(part).prepare(query).bind(inboxId).all<{ id: string; status: string }>()).results;
    });
  const statuses = (list: { id: string; status: string }[]) =>
    list.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).map((r) => r.status);
  const [events, deliveries] = [await rows("channel_events", "event_id"), await rows("channel_deliveries", "id")];
  return { events: statuses(events), deliveries: statuses(deliveries) };
}

/** Housekeeping's step on each database of the organization's data plane, run until it has nothing left to remove. */
async function prune(organizationId: string) {
  for (const db of await parts(organizationId))
    while (Object.values(await pruneChannelRows(db, Date.now(), { pages: 5, size: 200 })).some((n) => n > 0));
}

describe("channel rows kept for a time", () => {
  it("an event stays while its platform may send it again (and is still one message), then goes", async () => {
    const { owner, inbox, postUpdate } = await telegramInbox();
    const update = textUpdate("Where is my parcel?");
    expect((await postUpdate(update)).status).toBe(200);
    const conversation = await onlyConversation(owner, inbox.inboxId);
    await messagesWhen(owner, conversation.id, lastIs("sent"));

    await age(owner.organizationId, inbox.inboxId, EVENT_KEEP_MS - DAY_MS);
    await prune(owner.organizationId);
    expect(await rowsOf(owner.organizationId, inbox.inboxId)).toEqual({ events: ["stored"], deliveries: ["sent"] });
    // Meta's last retry, a week on: the same event, not a second message.
    expect((await postUpdate(update)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 500));
    expect((await messagesWhen(owner, conversation.id, lastIs("sent"))).map((m) => m.content)).toEqual([
      "Where is my parcel?",
      'You said: "Where is my parcel?".',
    ]);

    await age(owner.organizationId, inbox.inboxId, 2 * DAY_MS);
    await prune(owner.organizationId);
    expect(await rowsOf(owner.organizationId, inbox.inboxId)).toEqual({ events: [], deliveries: ["sent"] });
  });

  it("a sent reply's row goes after a month, the message still showing it sent; a failed one stays", async () => {
    const { owner, token, inbox, postUpdate } = await telegramInbox();
    expect((await postUpdate(textUpdate("First question"))).status).toBe(200);
    const conversation = await onlyConversation(owner, inbox.inboxId);
    await messagesWhen(owner, conversation.id, lastIs("sent"));
    await telegram.script(token, [
      { status: 200, body: { ok: true, result: true } }, // sendChatAction
      { status: 400, body: { ok: false, error_code: 400, description: "Bad Request: chat not found" } },
    ]);
    expect((await postUpdate(textUpdate("Second question"))).status).toBe(200);
    await messagesWhen(owner, conversation.id, lastIs("failed"));
    expect((await rowsOf(owner.organizationId, inbox.inboxId)).deliveries).toEqual(["sent", "failed"]);

    await age(owner.organizationId, inbox.inboxId, DELIVERY_KEEP_MS - DAY_MS);
    await prune(owner.organizationId);
    expect((await rowsOf(owner.organizationId, inbox.inboxId)).deliveries).toEqual(["sent", "failed"]);

    await age(owner.organizationId, inbox.inboxId, 2 * DAY_MS);
    await prune(owner.organizationId);
    expect(await rowsOf(owner.organizationId, inbox.inboxId)).toEqual({ events: [], deliveries: ["failed"] });
    const messages = await messagesWhen(owner, conversation.id, lastIs("failed"));
    expect(messages.map((m) => m.metadata?.channelDelivery?.status ?? null)).toEqual([null, "sent", null, "failed"]);
    // The failed one can still be sent again.
    const failed = messages[3];
    const retried = await owner.fetch("POST", `/messages/${failed.id}/channel-delivery/retry/`);
    expect(retried.status, await retried.clone().text()).toBe(202);
    await eventually(async () => (await rowsOf(owner.organizationId, inbox.inboxId)).deliveries[0] === "sent");
  });
});
