import { and, eq, lt, or } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Bindings, Db } from "../../env";
import { contacts, conversations, inboxes, messages, users, webhookDeliveries, webhooks } from "../../db/schema";
import { decryptSecret } from "../../lib/crypto";
import { parseAllowedHosts, webhookUrlProblem } from "../../lib/ssrf";
import { buildPayload, type WebhookEventData } from "./payloads";
import { signature } from "./signature";

export { enqueueDeliveries } from "./emit";

const DEFAULT_TIMEOUT_MS = 30_000;
const LEASE_MS = 60_000;
const MAX_REDIRECTS = 3;
const RESPONSE_KEPT_CHARS = 4_096;

type DeliveryRow = typeof webhookDeliveries.$inferSelect;
type WebhookRow = typeof webhooks.$inferSelect;

/**
 * Sends one delivery, exactly once per (message, webhook): the record is claimed first (pending ->
 * sending, with a lease so a crashed consumer's claim expires), then completed with what the
 * receiver answered. A redelivered queue message finds the record completed and does nothing.
 * Non-2xx answers and time-outs are failures and are not retried (delivery rule 3).
 */
export async function deliver(env: Bindings, db: Db, deliveryId: string, now = Date.now()): Promise<"sent" | "skipped"> {
  const [claimed] = await db
    .update(webhookDeliveries)
    .set({ status: "sending", leaseUntil: now + LEASE_MS })
    .where(
      and(
        eq(webhookDeliveries.id, deliveryId),
        or(eq(webhookDeliveries.status, "pending"), and(eq(webhookDeliveries.status, "sending"), lt(webhookDeliveries.leaseUntil, now))),
      ),
    )
    .returning();
  if (!claimed) return "skipped";
  const [webhook] = await db.select().from(webhooks).where(eq(webhooks.id, claimed.webhookId));
  const outcome = webhook ? await send(env, db, claimed, webhook) : { error: "The webhook was deleted." };
  await db
    .update(webhookDeliveries)
    .set({
      status: outcome.responseStatus && outcome.responseStatus >= 200 && outcome.responseStatus < 300 ? "success" : "failure",
      leaseUntil: null,
      attempts: claimed.attempts + 1,
      deliveredAt: Date.now(),
      url: webhook?.url ?? claimed.url,
      requestBody: outcome.requestBody ?? null,
      responseStatus: outcome.responseStatus ?? null,
      responseBody: outcome.responseBody ?? null,
      durationMs: outcome.durationMs ?? null,
      error: outcome.error ?? null,
    })
    .where(eq(webhookDeliveries.id, claimed.id));
  return "sent";
}

interface Outcome {
  requestBody?: string;
  responseStatus?: number;
  responseBody?: string;
  durationMs?: number;
  error?: string;
}

async function send(env: Bindings, db: Db, delivery: DeliveryRow, webhook: WebhookRow): Promise<Outcome> {
  let body: string;
  try {
    const data = await eventData(db, delivery.messageId);
    if (!data) return { error: "The message no longer exists." };
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
  const allowed = parseAllowedHosts(env.WEBHOOK_ALLOWED_HOSTS);
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

/** Everything a payload may show about a message, read in one query. */
export async function eventData(db: Db, messageId: string): Promise<WebhookEventData | null> {
  const [row] = await db
    .select({ message: messages, conversation: conversations, inbox: inboxes, contact: contacts, assignee: { id: assignees.id, name: assignees.name } })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .innerJoin(inboxes, eq(inboxes.id, conversations.inboxId))
    .leftJoin(contacts, eq(contacts.id, conversations.contactId))
    .leftJoin(assignees, eq(assignees.id, conversations.assigneeId))
    .where(eq(messages.id, messageId));
  if (!row) return null;
  const { message: m, conversation: c, inbox, contact, assignee } = row;
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

