import { DurableObject } from "cloudflare:workers";
import type { Bindings } from "../src/env";
import { SseWriter } from "../src/services/sse";
import type { InboxEvent } from "../src/services/conversation/inbox-events";

/**
 * One instance per organization (`idFromName(organizationId)`): the live inbox's hub. Conversation
 * objects and routes, on whatever isolate, publish what happens to the organization's
 * conversations (src/services/inbox-events.ts); every open stream of `conversation-events/` is a
 * subscriber here and gets each event at once. Nothing is stored: a stream sees what happens while
 * it is open, and a reconnecting client reads the list again.
 */
export class InboxEvents extends DurableObject<Bindings> {
  #streams = new Set<SseWriter>();

  /** Every event from now on as server-sent events, after an `event: ready` that says so. */
  subscribe(): ReadableStream<Uint8Array> {
    const sse = new SseWriter(() => this.#streams.delete(sse));
    this.#streams.add(sse);
    sse.send({ subscribers: this.#streams.size }, "ready");
    return sse.readable;
  }

  publish(events: InboxEvent[]): number {
    for (const sse of this.#streams) for (const { event, data } of events) sse.send(data, event);
    return this.#streams.size;
  }
}
