// A platform's request to `{origin}/channels/{platform}/{inboxId}` (CONTRACT section 17): verified
// the platform's way before anything is stored, its events kept by their own ids (a redelivery is
// the same row), the platform answered at once; the intake (intake.ts) makes them messages from the
// channel queue (docs/decisions.md, "Messaging channels").
import { sql } from "drizzle-orm";
import { channelEvents, inboxChannels } from "../../db/schema";
import type { Bindings, Db } from "../../env";
import { dataDb } from "../shards";
import { ApiError, isD1Error, notFound } from "../../lib/errors";
import { jsonNestsDeeperThan } from "../../lib/case";
import type { JsonObject } from "../../lib/json";
import { readBodyText } from "../../lib/http";
import { adapterFor } from "./platforms";
import { isChannelPlatform, loadChannel } from "./settings";
import type { InboundEvent } from "./types";
import { keepHandshake, settingsUnchanged } from "./verification";
import { logWarn } from "../../lib/log";

/**
 * What the channel queue carries: an event to take in, or a conversation whose replies are due; each with the
 * organization whose data plane holds it (absent in a message sent before messages named it).
 */
export type ChannelWork =
  | { kind: "event"; inboxId: string; eventId: string; organizationId?: string }
  | { kind: "deliver"; conversationId: string; organizationId?: string };

/** An event as kept in channel_events.payload. */
export type StoredEvent = InboundEvent & { receivedAt: number };

export async function receive(
  env: Bindings,
  db: Db,
  request: Request,
  platform: string,
  inboxId: string,
  now = Date.now(),
): Promise<Response> {
  if (!isChannelPlatform(platform) || platform === "email") throw notFound("No such channel.");
  const channel = await loadChannel(env, db, inboxId, platform);
  if (!channel) throw notFound("No such channel.");
  const adapter = await adapterFor(platform);
  if (request.method === "GET") {
    const check = adapter.handshake?.(request, "", channel.config, false);
    if (!check?.answer) throw notFound("This channel takes events by POST.");
    await keepHandshake(db, inboxId, check, now);
    return check.answer;
  }
  const raw = await readBodyText(request, env.JSON_BODY_LIMIT_BYTES);
  const signed = await adapter.verify(request, raw, channel.config);
  const nested = jsonNestsDeeperThan(raw);
  if (signed && nested) throw new ApiError(400, "invalid", "The body nests too deeply.");
  // Read unsigned too: the platform's check of the URL failing on the secret is what its owner needs to see.
  const check = nested ? null : adapter.handshake?.(request, raw, channel.config, signed);
  if (check) await keepHandshake(db, inboxId, check, now);
  if (check?.answer) return check.answer;
  if (!signed)
    throw new ApiError(
      401,
      "not_authenticated",
      `The request is not signed by ${platform} with this channel's secret.`,
    );
  const events = await adapter.parse(raw, channel.config);
  const { organizationId } = channel.config;
  await keep(env, db, await dataDb(env, organizationId), organizationId, inboxId, events, now);
  return new Response(JSON.stringify({ ok: true }), { status: 200, headers: { "Content-Type": "application/json" } });
}

/**
 * Stores the events not seen before (by the platform's id) in one batch on the organization's data plane (`data`),
 * then the channel's last event time on `db` on its own (the events are the truth: a time not written is only
 * logged, and the next event writes it), then hands the new events to the channel queue. Should the queue refuse,
 * they are kept pending and the housekeeping cron hands them over again.
 */
export async function keep(
  env: Bindings,
  db: Db,
  data: Db,
  organizationId: string,
  inboxId: string,
  events: InboundEvent[],
  now = Date.now(),
): Promise<string[]> {
  if (!events.length) return [];
  // `position` keeps the request's order for events of one time and one receiving time (intake.ts orders by it).
  const inserts = events.map((event, position) =>
    data
      .insert(channelEvents)
      .values({
        inboxId,
        eventId: event.eventId,
        organizationId,
        payload: { ...event, receivedAt: now } as unknown as JsonObject,
        threadKey: event.threadKey,
        at: event.at ?? now,
        receivedAt: now,
        position,
        // Kept as every event is (a redelivery is the same row), and seen in channel_events with its reason.
        ...(event.setAside ? { status: "ignored" as const, error: event.setAside } : {}),
      })
      .onConflictDoNothing()
      .returning({ eventId: channelEvents.eventId }),
  );
  const results = await data.batch(inserts as unknown as Parameters<Db["batch"]>[0]);
  const aside = new Set(events.filter((e) => e.setAside).map((e) => e.eventId));
  const fresh = (results as unknown as { eventId: string }[][])
    .flat()
    .map((r) => r.eventId)
    .filter((id) => !aside.has(id));
  try {
    await db
      .update(inboxChannels)
      .set({ lastEventAt: now, updatedAt: settingsUnchanged })
      .where(sql`${inboxChannels.inboxId} = ${inboxId}`);
  } catch (err) {
    if (!isD1Error(err)) throw err;
    logWarn("channel's last event time not written", { error: String(err) });
  }
  if (fresh.length)
    await enqueueWork(
      env,
      fresh.map((eventId) => ({ kind: "event", inboxId, eventId, organizationId })),
    );
  return fresh;
}

/** Hands work to the channel queue; a refusal is logged, not thrown (the cron hands it over again). */
export async function enqueueWork(env: Bindings, work: ChannelWork[], delaySeconds = 0): Promise<void> {
  for (let i = 0; i < work.length; i += 100) {
    const chunk = work.slice(i, i + 100).map((body) => ({ body, ...(delaySeconds ? { delaySeconds } : {}) }));
    try {
      await env.CHANNEL_QUEUE.sendBatch(chunk);
    } catch (err) {
      console.error(
        JSON.stringify({
          level: "warn",
          message: "channel work not queued; the cron will queue it",
          error: String(err),
        }),
      );
    }
  }
}
