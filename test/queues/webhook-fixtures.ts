import { expect } from "vitest";
import { env } from "cloudflare:workers";
import { createMessageBatch } from "cloudflare:test";
import { asc, eq } from "drizzle-orm";
import { webhookDeliveries } from "../../src/db/schema";
import { consumeWebhookDeliveries } from "../../src/queues/webhook-deliveries";
import { unique, type Actor } from "../harness";
import { dataDbs } from "../../src/services/shards";
import type { FaultMode } from "../support/webhook-receiver.mjs";
import { receivedAt } from "../support/received";
import { waitFor } from "../harness";
import { bodyOf } from "../support/api";
import { hmacSha256Key } from "../support/hmac";

export { waitFor };

export type Attempt = typeof webhookDeliveries.$inferSelect;

/** Sets the fault mode of the receiver's `/switch/<key>/` (test/support/webhook-receiver.mjs). */
export async function setMode(key: string, mode: FaultMode, ms?: number) {
  const res = await fetch(`${env.TEST_RECEIVER_URL}/modes/${key}`, {
    method: "PUT",
    body: JSON.stringify({ mode, ms }),
  });
  expect(res.status).toBe(204);
}

/** A receiver key in `mode`, and a webhook of the inbox pushing visitor messages to it. */
export async function switchedWebhook(
  owner: Actor,
  inboxId: string,
  mode: FaultMode,
  body: Record<string, unknown> = {},
) {
  const key = unique("switch");
  await setMode(key, mode);
  const res = await owner.fetch("POST", `/inboxes/${inboxId}/webhooks/`, {
    name: key,
    direction: "incoming",
    url: `${env.TEST_RECEIVER_URL}/switch/${key}`,
    ...body,
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return { key, hook: await bodyOf<"POST /inboxes/{inboxId}/webhooks/">(res) };
}

/** An outgoing webhook of the inbox to the receiver's `/ok/<unique>` (answered 200), with that path. */
export async function addWebhook(owner: Actor, inboxId: string, body: Record<string, unknown>) {
  const path = `/ok/${unique("hook")}`;
  const res = await owner.fetch("POST", `/inboxes/${inboxId}/webhooks/`, {
    name: unique("hook"),
    direction: "outgoing",
    url: `${env.TEST_RECEIVER_URL}${path}`,
    ...body,
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return { ...(await bodyOf<"POST /inboxes/{inboxId}/webhooks/">(res)), path };
}

/** What the receiver got on `/switch/<key>/`. */
export const received = (key: string) => receivedAt(`/switch/${key}`);

/** Every attempt of the webhook, by event then attempt, from whichever data plane holds them. */
export const attemptsOf = async (webhookId: string): Promise<Attempt[]> =>
  (
    await Promise.all(
      dataDbs(env).map((data) =>
        data
          .select()
          .from(webhookDeliveries)
          .where(eq(webhookDeliveries.webhookId, webhookId))
          .orderBy(asc(webhookDeliveries.messageId), asc(webhookDeliveries.attempt)),
      ),
    )
  ).flat();

/** `n` visitor messages in one conversation of the assistant: each an incoming event. */
export async function visitorMessages(owner: Actor, chatbotId: string, n: number): Promise<void> {
  let conversation: string | undefined;
  for (let i = 0; i < n; i++) {
    const res = await owner.fetch("POST", `/chatbots/${chatbotId}/completions/`, {
      conversation,
      message: { content: `event ${i}` },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    conversation = (await bodyOf<"POST /chatbots/{chatbotId}/completions/">(res)).conversationId;
  }
}

/**
 * The queue consumer on these attempts with the clock at `now`: how the tests move time. (Wake-ups it
 * queues for later attempts reach the real consumer, whose clock is behind ours: it finds them not due
 * and leaves them.) `settings` override the worker's (a longer WEBHOOK_TIMEOUT_MS).
 */
export async function consumeAt(attempts: { id: string }[], now: number, settings: Partial<typeof env> = {}) {
  const batch = createMessageBatch(
    "webhook-deliveries",
    attempts.map((a, i) => ({ id: `${a.id}-${i}`, timestamp: new Date(), attempts: 1, body: { deliveryId: a.id } })),
  );
  await consumeWebhookDeliveries(batch, { ...env, ...settings }, now);
}

/** Checks a delivery's `webhook-signature` (`v1,<base64 HMAC-SHA256 of "id.timestamp.body">`) with the secret. */
export async function verifySignature(secret: string, id: string, timestamp: string, body: string, header: string) {
  const key = await hmacSha256Key(secret, "verify");
  const [version, sig] = header.split(",");
  expect(version).toBe("v1");
  const bytes = Uint8Array.from(atob(sig), (c) => c.charCodeAt(0));
  return crypto.subtle.verify("HMAC", key, bytes, new TextEncoder().encode(`${id}.${timestamp}.${body}`));
}
