import { and, eq, inArray, lt, or } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Bindings, Db } from "../../env";
import { contacts, conversations, inboxes, messages, users, webhookDeliveries, webhooks } from "../../db/schema";
import { decryptSecret } from "../../lib/crypto";
import { chunk } from "../../lib/sql";
import { outboundAllowedHosts, webhookUrlProblem } from "../../lib/ssrf";
import { buildPayload, type WebhookEventData } from "./payloads";
import { signature } from "./signature";

const DEFAULT_TIMEOUT_MS = 30_000;
const LEASE_MS = 60_000;
const MAX_REDIRECTS = 3;
const RESPONSE_KEPT_CHARS = 4_096;

type DeliveryRow = typeof webhookDeliveries.$inferSelect;
type WebhookRow = typeof webhooks.$inferSelect;

/**
 * Sends deliveries, each exactly once per (message, webhook): the records are claimed first
 * (pending -> sending, with a lease so a crashed consumer's claim expires), then completed with what
 * each receiver answered. A redelivered queue message finds its record claimed or completed and is
 * skipped. Non-2xx answers and time-outs are failures and are not retried (delivery rule 3).
 * A batch costs four D1 round trips however large it is (claim, webhooks, messages, completion).
 * Resolves to the ids that were sent (claimed), in any order.
 */
export async function deliverAll(env: Bindings, db: Db, deliveryIds: string[], now = Date.now()): Promise<Set<string>> {
  const claimable = or(eq(webhookDeliveries.status, "pending"), and(eq(webhookDeliveries.status, "sending"), lt(webhookDeliveries.leaseUntil, now)));
  const claimed = (
    await Promise.all(
      chunk([...new Set(deliveryIds)]).map((ids) =>
        db
          .update(webhookDeliveries)
          .set({ status: "sending", leaseUntil: now + LEASE_MS })
          .where(and(inArray(webhookDeliveries.id, ids), claimable))
          .returning(),
      ),
    )
  ).flat();
  if (!claimed.length) return new Set();
  const [hooks, events] = await Promise.all([
    byId(chunk([...new Set(claimed.map((d) => d.webhookId))]), (ids) => db.select().from(webhooks).where(inArray(webhooks.id, ids))),
    eventData(db, [...new Set(claimed.map((d) => d.messageId))]),
  ]);
  const outcomes = await Promise.all(
    claimed.map(async (delivery) => {
      const webhook = hooks.get(delivery.webhookId);
      const data = events.get(delivery.messageId);
      // Delivery rule 1: a webhook disabled after the message was recorded sends nothing.
      const outcome: Outcome = !webhook
        ? { error: "The webhook was deleted." }
        : !webhook.isEnabled
          ? { error: "The webhook was disabled before delivery." }
          : !data
            ? { error: "The message no longer exists." }
            : await send(env, delivery, webhook, data);
      return { delivery, webhook, outcome };
    }),
  );
  await db.batch(
    outcomes.map(({ delivery, webhook, outcome }) =>
      db
        .update(webhookDeliveries)
        .set({
          status: outcome.responseStatus && outcome.responseStatus >= 200 && outcome.responseStatus < 300 ? "success" : "failure",
          leaseUntil: null,
          attempts: delivery.attempts + 1,
          deliveredAt: Date.now(),
          url: webhook?.url ?? delivery.url,
          requestBody: outcome.requestBody ?? null,
          responseStatus: outcome.responseStatus ?? null,
          responseBody: outcome.responseBody ?? null,
          durationMs: outcome.durationMs ?? null,
          error: outcome.error ?? null,
        })
        .where(eq(webhookDeliveries.id, delivery.id)),
    ) as never,
  );
  return new Set(claimed.map((d) => d.id));
}

/** One delivery (`deliverAll` for a single id). */
export async function deliver(env: Bindings, db: Db, deliveryId: string, now = Date.now()): Promise<"sent" | "skipped"> {
  return (await deliverAll(env, db, [deliveryId], now)).size ? "sent" : "skipped";
}

async function byId<T extends { id: string }>(parts: string[][], read: (ids: string[]) => Promise<T[]>): Promise<Map<string, T>> {
  return new Map((await Promise.all(parts.map(read))).flat().map((row) => [row.id, row]));
}

interface Outcome {
  requestBody?: string;
  responseStatus?: number;
  responseBody?: string;
  durationMs?: number;
  error?: string;
}

async function send(env: Bindings, delivery: DeliveryRow, webhook: WebhookRow, data: WebhookEventData): Promise<Outcome> {
  let body: string;
  try {
    body = buildPayload(webhook.templatePreset, data, webhook.customTemplate ?? undefined);
  } catch (err) {
    return { error: `The payload could not be built: ${(err as Error).message}` };
  }
  let headers: Headers;
  try {
    headers = new Headers(webhook.headers ?? {});
  } catch (err) {
    return { requestBody: body, error: `Invalid custom headers: ${(err as Error).message}` };
  }
  headers.set("Content-Type", "application/json");
  headers.set("User-Agent", "assistant-platform-webhooks/1");
  const timestamp = Math.floor(Date.now() / 1000);
  headers.set("webhook-id", delivery.messageId);
  headers.set("webhook-timestamp", String(timestamp));
  if (webhook.secretTokenSealed) {
    const secret = await decryptSecret(webhook.secretTokenSealed, env.ENCRYPTION_KEY);
    headers.set("X-Webhook-Secret", secret);
    headers.set("webhook-signature", await signature(secret, delivery.messageId, timestamp, body));
  }
  const allowed = outboundAllowedHosts(env);
  const timeout = AbortSignal.timeout(Number(env.WEBHOOK_TIMEOUT_MS) || DEFAULT_TIMEOUT_MS);
  const started = Date.now();
  let url = webhook.url;
  try {
    for (let hop = 0; ; hop++) {
      const problem = webhookUrlProblem(url, allowed);
      if (problem) return { requestBody: body, error: hop ? `Redirect refused: ${problem}` : `URL refused: ${problem}` };
      const res = await fetch(url, { method: webhook.method, headers, body, redirect: "manual", signal: timeout });
      const location = res.headers.get("Location");
      if (res.status >= 300 && res.status < 400 && location) {
        await res.body?.cancel();
        if (hop >= MAX_REDIRECTS) return { requestBody: body, responseStatus: res.status, durationMs: Date.now() - started, error: "Too many redirects." };
        url = new URL(location, url).toString();
        continue;
      }
      const text = (await res.text()).slice(0, RESPONSE_KEPT_CHARS);
      const durationMs = Date.now() - started;
      const ok = res.status >= 200 && res.status < 300;
      return { requestBody: body, responseStatus: res.status, responseBody: text, durationMs, error: ok ? undefined : `The receiver answered ${res.status}.` };
    }
  } catch (err) {
    const timedOut = (err as Error).name === "TimeoutError" || timeout.aborted;
    return { requestBody: body, durationMs: Date.now() - started, error: timedOut ? "The receiver did not answer in time." : `The request failed: ${(err as Error).message}` };
  }
}

const assignees = alias(users, "assignees");

/** Everything a payload may show about each message, by message id (one query per 90 messages). */
export async function eventData(db: Db, messageIds: string[]): Promise<Map<string, WebhookEventData>> {
  const rows = (await Promise.all(chunk(messageIds).map((ids) => eventRows(db, ids)))).flat();
  return new Map(rows.map((row) => [row.message.id, eventOf(row)]));
}

const eventRows = (db: Db, messageIds: string[]) =>
  db
    .select({ message: messages, conversation: conversations, inbox: inboxes, contact: contacts, assignee: { id: assignees.id, name: assignees.name } })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .innerJoin(inboxes, eq(inboxes.id, conversations.inboxId))
    .leftJoin(contacts, eq(contacts.id, conversations.contactId))
    .leftJoin(assignees, eq(assignees.id, conversations.assigneeId))
    .where(inArray(messages.id, messageIds));

function eventOf({ message: m, conversation: c, inbox, contact, assignee }: Awaited<ReturnType<typeof eventRows>>[number]): WebhookEventData {
  return {
    message: { id: m.id, type: m.type, content: m.content, createdAt: m.createdAt, metadata: m.metadata ?? {}, feedback: m.feedback, citations: m.citations ?? [] },
    conversation: {
      id: c.id,
      title: c.title,
      type: c.type,
      status: c.status,
      progressStatus: c.progressStatus,
      autoReplyEnabled: c.autoReplyEnabled,
      assignee: assignee?.id ? { id: assignee.id, name: assignee.name } : null,
    },
    inbox: { id: inbox.id, name: inbox.name, channelType: inbox.channelType },
    contact: contact ? { id: contact.id, name: contact.name, email: contact.email, phoneNumber: contact.phoneNumber, sourceId: contact.sourceId } : null,
    sender: { id: m.senderId, name: m.senderName, avatar: m.senderAvatar, type: m.senderType },
    attachments: (m.attachments ?? []).map((a) => ({
      id: typeof a.id === "string" ? a.id : null,
      type: typeof a.type === "string" ? a.type : "other",
      filename: String(a.filename ?? ""),
      sourceUrl: typeof a.file === "string" ? a.file : "",
      fileUrl: typeof a.file === "string" ? a.file : "",
    })),
  };
}

/** Deliveries the queue may never have heard of (a crash between commit and enqueue), or whose claim expired. */
export async function strandedDeliveries(db: Db, now = Date.now(), olderThanMs = 60_000): Promise<string[]> {
  const rows = await db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(
      or(
        and(eq(webhookDeliveries.status, "pending"), lt(webhookDeliveries.createdAt, now - olderThanMs)),
        and(eq(webhookDeliveries.status, "sending"), lt(webhookDeliveries.leaseUntil, now)),
      ),
    )
    .limit(1000);
  return rows.map((r) => r.id);
}

