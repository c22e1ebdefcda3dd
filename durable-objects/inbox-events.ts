import { DurableObject } from "cloudflare:workers";
import type { Bindings } from "../src/env";
import { getDb } from "../src/db";
import { SseWriter } from "../src/services/sse";
import type { InboxEvent } from "../src/services/conversation/inbox-events";
import { wentAway } from "../src/services/assignment/availability";

/** A console tab's stream: whose it is, and how long after their last one closes they count as gone. */
export interface Presence {
  organizationId: string;
  userId: string;
  graceMs: number;
}

const AWAY_PREFIX = "away:";

/**
 * One instance per organization (`idFromName(organizationId)`): the live inbox's hub. Conversation
 * objects and routes, on whatever isolate, publish what happens to the organization's
 * conversations (src/services/conversation/inbox-events.ts); every open stream of `conversation-events/` is a
 * subscriber here and gets each event at once. Nothing is stored: a stream sees what happens while
 * it is open, and a reconnecting client reads the list again.
 *
 * It also counts each member's open console streams (presence): once a member's last one has been
 * closed for `graceMs` (a reload reopens it sooner), they become offline (services/assignment).
 */
export class InboxEvents extends DurableObject<Bindings> {
  #streams = new Set<SseWriter>();
  #open = new Map<string, number>();

  /**
   * Every event from now on as server-sent events, after an `event: ready` that says so. With
   * `presence`, a console tab of that member: its stream's route tells `left` when it closes (a
   * reader's cancel does not reach this object through the stream).
   */
  subscribe(presence?: Presence): ReadableStream<Uint8Array> {
    const sse = new SseWriter(() => this.#streams.delete(sse));
    this.#streams.add(sse);
    if (presence) {
      this.#open.set(presence.userId, (this.#open.get(presence.userId) ?? 0) + 1);
      this.ctx.storage.kv.delete(AWAY_PREFIX + presence.userId);
    }
    sse.send({ subscribers: this.#streams.size }, "ready");
    return sse.readable;
  }

  /** A member's console stream has closed: once none is open for `graceMs`, they are offline (see alarm). */
  async left({ organizationId, userId, graceMs }: Presence): Promise<void> {
    const left = (this.#open.get(userId) ?? 1) - 1;
    if (left > 0) return void this.#open.set(userId, left);
    this.#open.delete(userId);
    const at = Date.now() + graceMs;
    this.ctx.storage.kv.put(AWAY_PREFIX + userId, { organizationId, at });
    const current = await this.ctx.storage.getAlarm();
    if (current === null || current > at) await this.ctx.storage.setAlarm(at);
  }

  publish(events: InboxEvent[]): number {
    for (const sse of this.#streams) for (const { event, data } of events) sse.send(data, event);
    return this.#streams.size;
  }

  /** Members whose last stream closed and who are gone for good now: offline. */
  async alarm() {
    const now = Date.now();
    let next = Infinity;
    for (const [key, away] of this.ctx.storage.kv.list<{ organizationId: string; at: number }>({
      prefix: AWAY_PREFIX,
    })) {
      const userId = key.slice(AWAY_PREFIX.length);
      if (this.#open.get(userId)) this.ctx.storage.kv.delete(key);
      else if (away.at > now) next = Math.min(next, away.at);
      else {
        await wentAway(getDb(this.env.DB), away.organizationId, userId);
        this.ctx.storage.kv.delete(key);
      }
    }
    if (next < Infinity) await this.ctx.storage.setAlarm(next);
  }
}
