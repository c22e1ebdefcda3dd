import { eq } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { inboxes } from "../../db/schema";
import { uuidv7 } from "../../lib/ids";
import type { WebhookView } from "./config";
import { send, succeeded } from "./send";
import { SAMPLE_EVENT_DATA } from "./templates";
import type { WebhookEventData } from "./payloads";

export interface TestSendResult {
  eventId: string;
  ok: boolean;
  statusCode: number | null;
  response: string | null;
  requestBody: string | null;
  durationMs: number | null;
  error: string | null;
  sentAt: number;
}

/**
 * Pushes a made-up event to a webhook now, the way a real one goes (its preset or template,
 * headers, secret and signature, SSRF rules, time-out), and says what the receiver answered. The
 * event is the template check's sample, in the webhook's own inbox and direction, with a fresh id
 * (receivers deduplicating by id would drop a repeated test) and `metadata.test: true`. Nothing is
 * stored: no delivery record (a record is an attempt of a stored message), and the webhook's
 * failure run is left alone, so a test never disables or re-enables it.
 */
export async function sendTestEvent(
  env: Bindings,
  db: Db,
  { webhook, inbox }: WebhookView,
  now = Date.now(),
): Promise<TestSendResult> {
  const [row] = await db.select({ channelType: inboxes.channelType }).from(inboxes).where(eq(inboxes.id, inbox.id));
  const eventId = uuidv7(now);
  const outgoing = webhook.direction === "outgoing";
  const data: WebhookEventData = {
    ...SAMPLE_EVENT_DATA,
    message: {
      ...SAMPLE_EVENT_DATA.message,
      id: eventId,
      type: outgoing ? "outgoing" : "incoming",
      content: outgoing
        ? "This is a test event from the webhook's settings: an assistant's reply."
        : "This is a test event from the webhook's settings: a visitor's message.",
      createdAt: now,
      metadata: { test: true },
    },
    inbox: { id: inbox.id, name: inbox.name, channelType: row?.channelType ?? SAMPLE_EVENT_DATA.inbox.channelType },
    sender: outgoing
      ? { id: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c44", name: "Test assistant", avatar: null, type: "chatbot" }
      : SAMPLE_EVENT_DATA.sender,
  };
  const outcome = await send(env, eventId, webhook, data);
  return {
    eventId,
    ok: succeeded(outcome),
    statusCode: outcome.responseStatus ?? null,
    response: outcome.responseBody ?? null,
    requestBody: outcome.requestBody ?? null,
    durationMs: outcome.durationMs ?? null,
    error: outcome.error ?? null,
    sentAt: now,
  };
}
