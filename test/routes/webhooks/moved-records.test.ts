import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { eq, inArray } from "drizzle-orm";
import { webhookDeliveries, webhookDeliverySegments } from "../../../src/db/schema";
import {
  endedDeliveries,
  moveEndedDeliveries,
  readSegment,
  writeSegments,
} from "../../../src/services/webhooks/segments";
import { runHousekeeping } from "../../../src/services/housekeeping";
import { data, seedOwner, type Actor } from "../../harness";
import { comparableBodyOf, pageOf } from "../../support/api";
import { at, createWebhook, insertDelivery, seedConversation, webhooksPath } from "./fixtures";

/**
 * Delivered records move from D1 to hourly R2 segments (services/webhooks/segments.ts); every list, record and
 * redelivery answers as it did while they were in D1.
 */

/** Two webhooks of one assistant's inbox, with events that succeeded (they move), failed or are pending (they stay). */
async function seedMoved(owner: Actor) {
  const { bot, inboxId, messageIds: m } = await seedConversation(owner, 4);
  const a = await createWebhook(owner, inboxId, { name: "A" });
  const b = await createWebhook(owner, inboxId, { name: "B" });
  const base = { inboxId, chatbotId: bot.id, webhookId: a.id };
  const ok = { status: "success", responseStatus: 200, error: null } as const;
  const r = {
    m0first: await insertDelivery(owner, { ...base, messageId: m[0], createdAt: at("2026-01-10", "10:00") }),
    m0second: await insertDelivery(owner, {
      ...base,
      ...ok,
      messageId: m[0],
      attempt: 2,
      createdAt: at("2026-01-10", "11:30"),
    }),
    m1: await insertDelivery(owner, { ...base, ...ok, messageId: m[1], createdAt: at("2026-01-10", "10:15") }),
    m6: await insertDelivery(owner, { ...base, ...ok, messageId: m[6], createdAt: at("2026-01-10", "10:15") }),
    m2: await insertDelivery(owner, { ...base, messageId: m[2], createdAt: at("2026-01-11", "08:00") }),
    m3: await insertDelivery(owner, {
      ...base,
      messageId: m[3],
      status: "pending",
      attempts: 0,
      createdAt: at("2026-01-12", "07:00"),
    }),
    m4: await insertDelivery(owner, {
      ...base,
      ...ok,
      messageId: m[4],
      event: "incoming",
      createdAt: at("2026-01-12", "09:00"),
    }),
    m5: await insertDelivery(owner, {
      ...base,
      ...ok,
      webhookId: b.id,
      messageId: m[5],
      createdAt: at("2026-01-10", "10:20"),
    }),
    m7: await insertDelivery(owner, {
      ...base,
      webhookId: b.id,
      messageId: m[7],
      createdAt: at("2026-01-12", "09:30"),
    }),
  };
  return { bot, inboxId, a, b, m, r };
}

type Seeded = Awaited<ReturnType<typeof seedMoved>>;

/** Every answer the readers give for the seed: lists (filters, pages, past the last page) and single records. */
async function answers(owner: Actor, { bot, inboxId, a, b, m, r }: Seeded) {
  const lists = [
    ...[
      "",
      "?pageSize=2",
      "?pageSize=2&page=2",
      "?pageSize=2&page=3",
      "?pageSize=2&page=4",
      "?pageSize=3&page=5",
      "?status=success",
      "?status=failed",
      "?status=pending",
      "?startDate=2026-01-10&endDate=2026-01-10",
      "?startDate=2026-01-11",
      "?endDate=2026-01-11&pageSize=1&page=2",
      `?eventId=${m[0]}`,
      `?eventId=${m[0]}&pageSize=1&page=2`,
      "?status=success&pageSize=2&page=2",
    ].map((q) => `${webhooksPath(inboxId, a.id)}records/${q}`),
    ...[
      "",
      "?pageSize=3&page=2",
      `?webhook=${b.id}`,
      `?webhook=${b.id}&status=success`,
      `?eventId=${m[5]}`,
      "?startDate=2026-01-12",
    ].map((q) => `/chatbots/${bot.id}/webhook-records/${q}`),
  ];
  const records = Object.values(r).flatMap((id) => [
    `${webhooksPath(inboxId, a.id)}records/${id}/`,
    `${webhooksPath(inboxId, b.id)}records/${id}/`,
    `/chatbots/${bot.id}/webhook-records/${id}/`,
  ]);
  return Promise.all(
    [...lists, ...records].map(async (path) => {
      const res = await owner.fetch("GET", path);
      return { path, status: res.status, body: await comparableBodyOf(res) };
    }),
  );
}

const d1Ids = async (owner: Actor, webhookIds: string[]) =>
  (
    await (
      await data(owner.organizationId)
    )
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(inArray(webhookDeliveries.webhookId, webhookIds))
  )
    .map((row) => row.id)
    .sort();

describe("webhook delivery records moved to R2 segments", () => {
  it("list, get and the assistant's records answer the same; D1 keeps only what has not succeeded", async () => {
    const owner = await seedOwner();
    const seeded = await seedMoved(owner);
    const before = await answers(owner, seeded);
    expect(before.filter((a) => a.status === 200).length).toBeGreaterThan(20);

    expect(await moveEndedDeliveries(env, await data(owner.organizationId))).toBeGreaterThanOrEqual(6);
    const { r, a, b } = seeded;
    expect(await d1Ids(owner, [a.id, b.id])).toEqual([r.m2, r.m3, r.m7].sort());
    const segments = await (await data(owner.organizationId))
      .select()
      .from(webhookDeliverySegments)
      .where(eq(webhookDeliverySegments.organizationId, owner.organizationId));
    // One per hour: 10:00 (m0's first, m1, m6, m5), 11:00 (m0's second), 09:00 of the 12th (m4).
    expect(segments.map((s) => [new Date(s.hour).toISOString(), s.records]).sort()).toEqual([
      ["2026-01-10T10:00:00.000Z", 4],
      ["2026-01-10T11:00:00.000Z", 1],
      ["2026-01-12T09:00:00.000Z", 1],
    ]);

    expect(await answers(owner, seeded)).toEqual(before);
  });

  it(
    "a moved event is sent again with its next attempt number; redeliver-failed still skips events that " + "succeeded",
    async () => {
      const owner = await seedOwner();
      const { inboxId, a, m, r } = await seedMoved(owner);
      await moveEndedDeliveries(env, await data(owner.organizationId));
      const redeliver = (id: string) => owner.fetch("POST", `${webhooksPath(inboxId, a.id)}records/${id}/redeliver/`);

      const res = await redeliver(r.m0first);
      expect(res.status, await res.clone().text()).toBe(202);
      expect(await res.json()).toMatchObject({ eventId: m[0], attempt: 3, status: "pending" });
      // Its attempt 3 is pending (or being sent): the event cannot be sent again yet.
      expect((await redeliver(r.m0second)).status).toBe(409);

      // m1 was sent again after it moved, and that attempt failed: it had a success all the same.
      await insertDelivery(owner, {
        inboxId,
        webhookId: a.id,
        chatbotId: null,
        messageId: m[1],
        attempt: 2,
        createdAt: at("2026-01-13"),
      });
      const failed = await owner.fetch("POST", `${webhooksPath(inboxId, a.id)}redeliver-failed/`, {});
      expect(failed.status).toBe(202);
      // Only m2: m3 is pending, and every other event has a success (m1's in its segment).
      expect(await failed.json()).toMatchObject({ count: 1 });
    },
  );

  it(
    "a move stopped between writing its segments and its D1 batch shows each record once, and moves " + "later",
    async () => {
      const owner = await seedOwner();
      const seeded = await seedMoved(owner);
      // Whatever earlier tests left ready moves first, so that this move holds only the seed's records.
      await moveEndedDeliveries(env, await data(owner.organizationId));
      const more = await seedMoved(owner);
      const before = await answers(owner, more);
      // This organization's: test files running beside this one (the database is shared) end deliveries of their own.
      const lines = (await endedDeliveries(await data(owner.organizationId))).filter(
        (l) => l.organizationId === owner.organizationId,
      );
      expect(lines.map((l) => l.id).sort()).toEqual(
        [more.r.m0first, more.r.m0second, more.r.m1, more.r.m6, more.r.m4, more.r.m5].sort(),
      );
      const written = await writeSegments(env, lines);
      expect(written.length).toBe(3);
      expect(await answers(owner, more)).toEqual(before);

      await moveEndedDeliveries(env, await data(owner.organizationId));
      expect(await answers(owner, more)).toEqual(before);
      expect(await d1Ids(owner, [seeded.a.id, more.a.id, more.b.id])).toEqual(
        [seeded.r.m2, seeded.r.m3, more.r.m2, more.r.m3, more.r.m7].sort(),
      );
    },
  );

  it("two organizations' records never share a segment, and one cannot read the other's", async () => {
    const owner = await seedOwner();
    const stranger = await seedOwner();
    const mine = await seedMoved(owner);
    const theirs = await seedMoved(stranger);
    // The cron's run moves them (with its other work).
    await runHousekeeping(env);
    const segments = (
      await Promise.all(
        [owner, stranger].map(async ({ organizationId }) =>
          (
            await data(organizationId)
          )
            .select()
            .from(webhookDeliverySegments)
            .where(eq(webhookDeliverySegments.organizationId, organizationId)),
        ),
      )
    ).flat();
    expect(segments.length).toBe(6);
    for (const segment of segments) {
      expect(segment.key.startsWith(`deliveries/${segment.organizationId}/`)).toBe(true);
      for (const line of await readSegment(env, segment.key)) expect(line.organizationId).toBe(segment.organizationId);
    }
    // Their moved record, through my webhook, my assistant, and the path of theirs.
    for (const path of [
      `${webhooksPath(mine.inboxId, mine.a.id)}records/${theirs.r.m1}/`,
      `/chatbots/${mine.bot.id}/webhook-records/${theirs.r.m1}/`,
      `${webhooksPath(theirs.inboxId, theirs.a.id)}records/${theirs.r.m1}/`,
    ])
      expect((await owner.fetch("GET", path)).status, path).toBe(404);
    const list = await owner.fetch("GET", `/chatbots/${mine.bot.id}/webhook-records/`);
    const ids = (await pageOf<"GET /chatbots/{chatbotPk}/webhook-records/">(list)).results.map((x) => x.id);
    expect(ids.sort()).toEqual(Object.values(mine.r).sort());
  });

  it("moved records of a deleted webhook leave the assistant's list, as D1's cascade removes its rows", async () => {
    const owner = await seedOwner();
    const { bot, inboxId, b, r } = await seedMoved(owner);
    await moveEndedDeliveries(env, await data(owner.organizationId));
    expect((await owner.fetch("DELETE", webhooksPath(inboxId, b.id))).status).toBe(204);
    const res = await owner.fetch("GET", `/chatbots/${bot.id}/webhook-records/`);
    const page = await pageOf<"GET /chatbots/{chatbotPk}/webhook-records/">(res);
    expect(page.count).toBe(7);
    expect(page.results.map((x) => x.id).sort()).toEqual([r.m0first, r.m0second, r.m1, r.m6, r.m2, r.m3, r.m4].sort());
    expect((await owner.fetch("GET", `/chatbots/${bot.id}/webhook-records/${r.m5}/`)).status).toBe(404);
  });
});
