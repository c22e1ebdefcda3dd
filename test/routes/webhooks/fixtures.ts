import { expect } from "vitest";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { webhookDeliveries, webhooks } from "../../../src/db/schema";
import { uuidv7 } from "../../../src/lib/ids";
import { data, db, seedOwner, unique, type Actor, conversationData } from "../../harness";
import { dataDbs } from "../../../src/services/shards";
import { openedHeaders } from "../../../src/services/webhooks/headers";
import { createChatbot, type ChatbotRecord } from "../../fixtures/chatbots";

export type { WebhookRecord } from "../../../src/services/records/webhooks";
import type { WebhookRecord } from "../../../src/services/records/webhooks";
import { bodyOf } from "../../support/api";

import type { WebhookDeliveryRecord } from "../../../src/services/records/webhook-deliveries";
import { objectMessages } from "../../support/object-messages";
export type DeliveryRecord = WebhookDeliveryRecord;

export type Page<T> = { count: number; next: string | null; previous: string | null; results: T[] };

/**
 * The local receiver (test/support/webhook-receiver.mjs), answering 200: events of the webhooks that
 * tests create are really delivered, never to a name the machine cannot resolve (workerd's lookup of
 * such a name can hang the queue event until the runtime cancels it).
 */
export const HOOK_URL = `${env.TEST_RECEIVER_URL}/ok/hooks`;

export const webhooksPath = (inboxId: string, webhookId?: string) =>
  `/inboxes/${inboxId}/webhooks/${webhookId ? `${webhookId}/` : ""}`;

/** An inbox of `actor`'s organization, through the API (no assistant, no web chat). */
export async function createInbox(actor: Actor): Promise<{ id: string; name: string }> {
  const res = await actor.fetch("POST", "/inboxes/", { name: unique("inbox"), channelType: "api" });
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json();
}

export async function createWebhook(
  actor: Actor,
  inboxId: string,
  body: Record<string, unknown> = {},
): Promise<WebhookRecord> {
  const res = await actor.fetch("POST", webhooksPath(inboxId), {
    name: unique("hook"),
    direction: "outgoing",
    url: HOOK_URL,
    ...body,
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json();
}

/** A new owner with a webhook (`body`: createWebhook's) in an inbox of their own, and the webhook's path. */
export async function ownersWebhook(body: Record<string, unknown> = {}) {
  const owner = await seedOwner();
  const inbox = await createInbox(owner);
  const hook = await createWebhook(owner, inbox.id, body);
  return { owner, hook, path: webhooksPath(inbox.id, hook.id) };
}

/**
 * For cross-organization and wrong-inbox 404s: a stranger's inbox and webhook (`theirInbox`,
 * `theirs`), and `owner`'s webhook `hook` in inbox `mine` beside a second inbox `other`.
 */
export async function webhooksOfTwoOrganizations(owner: Actor) {
  const stranger = await seedOwner();
  const theirInbox = await createInbox(stranger);
  const theirs = await createWebhook(stranger, theirInbox.id);
  const mine = await createInbox(owner);
  const other = await createInbox(owner);
  const hook = await createWebhook(owner, mine.id);
  return { theirInbox, theirs, mine, other, hook };
}

export const storedWebhooks = (inboxId: string) => db().select().from(webhooks).where(eq(webhooks.inboxId, inboxId));
export const storedWebhook = async (id: string) => (await db().select().from(webhooks).where(eq(webhooks.id, id)))[0];
/** The custom headers a webhook has stored, opened from their seal. */
export const storedHeaders = async (id: string) => openedHeaders(await storedWebhook(id), env);

/**
 * An assistant with one conversation of `turns` completions (two messages each) in its default
 * inbox; returns the assistant, that inbox, the conversation and its message ids in sequence.
 */
export async function seedConversation(
  actor: Actor,
  turns = 2,
): Promise<{ bot: ChatbotRecord; inboxId: string; conversationId: string; messageIds: string[] }> {
  const bot = await createChatbot(actor);
  let conversation: string | undefined;
  for (let i = 0; i < turns; i++) {
    const res = await actor.fetch("POST", `/chatbots/${bot.id}/completions/`, {
      conversation,
      message: { content: `question ${i}` },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    conversation = (await bodyOf<"POST /chatbots/{chatbotId}/completions/">(res)).conversationId;
  }
  const rows = await objectMessages(conversation!);
  return { bot, inboxId: bot.defaultInbox!.id, conversationId: conversation!, messageIds: rows.map((r) => r.id) };
}

/** A delivery record written straight to the table, as the outbox and the consumer would leave it. */
export async function insertDelivery(
  actor: Actor,
  values: { webhookId: string; inboxId: string; chatbotId: string | null; messageId: string } & Partial<
    typeof webhookDeliveries.$inferInsert
  >,
) {
  const id = uuidv7();
  // Where the service keeps it: its conversation's part of the data plane (services/shards/parts.ts).
  const part = values.conversationId
    ? await conversationData(actor.organizationId, values.conversationId)
    : await data(actor.organizationId);
  await part.insert(webhookDeliveries).values({
    id,
    organizationId: actor.organizationId,
    event: "outgoing",
    status: "failure",
    attempts: 1,
    url: HOOK_URL,
    requestBody: '{"id":"x"}',
    responseStatus: 500,
    responseBody: '{"message":"receiver failed"}',
    durationMs: 12,
    error: "The receiver answered 500.",
    deliveredAt: Date.now(),
    ...values,
    scheduledAt: values.scheduledAt ?? values.createdAt ?? Date.now(),
  });
  return id;
}

/** A delivery record by id, from whichever data plane holds it. */
export const storedDelivery = async (id: string) =>
  (
    await Promise.all(
      dataDbs(env).map((data) => data.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id))),
    )
  ).flat()[0];

/** Epoch ms of a UTC date and time, e.g. at("2026-01-10", "12:00"). */
export const at = (day: string, time = "12:00") => Date.parse(`${day}T${time}:00Z`);
