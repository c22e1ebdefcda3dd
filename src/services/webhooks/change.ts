import { and, eq, isNull } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { webhooks } from "../../db/schema";
import { cannotOpen } from "../../lib/crypto";
import { conflict } from "../../lib/errors";
import { headersToStore } from "../../lib/masked-headers";
import { credentialsStay } from "../../lib/redirects";
import type { z } from "@hono/zod-openapi";
import type { WebhookInput, WebhookWrite } from "../records/webhooks";
import {
  checkWebhookRules,
  getWebhook,
  insertWebhook,
  requireInbox,
  sealSecretToken,
  type WebhookRow,
  type WebhookView,
} from "./config";
import { openedHeaders, sealedHeaders } from "./headers";

/**
 * Adds a webhook to an inbox of the organization (404 for another's) and returns it: checked as a change is
 * (checkWebhookRules); left out, the `service_standard` preset, enabled, no retries, no lifecycle events, POST.
 */
export async function createWebhook(
  db: Db,
  env: Pick<Bindings, "ENCRYPTION_KEY" | "WEBHOOK_ALLOWED_HOSTS" | "OUTBOUND_ALLOWED_HOSTS">,
  organizationId: string,
  inboxId: string,
  { secretToken, ...body }: z.output<typeof WebhookWrite>,
): Promise<WebhookView> {
  const inbox = await requireInbox(db, organizationId, inboxId);
  const templatePreset = body.templatePreset ?? "service_standard";
  const conversationEvents = body.conversationEvents ?? false;
  checkWebhookRules(env, {
    url: body.url,
    templatePreset,
    customTemplate: body.customTemplate,
    storedTemplate: null,
    direction: body.direction,
    conversationEvents,
  });
  const values = {
    name: body.name,
    direction: body.direction,
    isEnabled: body.isEnabled ?? true,
    retryFailedDeliveries: body.retryFailedDeliveries ?? false,
    conversationEvents,
    url: body.url,
    method: body.method ?? "POST",
    headers: body.headers ?? {},
    templatePreset,
    customTemplate: body.customTemplate ?? null,
  };
  const id = await insertWebhook(db, env, organizationId, inbox.id, values, secretToken);
  return getWebhook(db, organizationId, inbox.id, id);
}

/** Reads and checks of a change that keeps finding the webhook changed under it, before it answers 409. */
const TRIES = 3;

/**
 * Changes a webhook of an inbox of the organization and returns it: fields left out stay (the secret token too; null
 * removes it), and the result is checked against the webhook as it is (checkWebhookRules). The write applies only
 * while what the check read is still as read: two changes at once, each allowed alone, would otherwise make a webhook
 * neither may (genesys_cloud with lifecycle events, whose receiver answers errors until the webhook is disabled). One
 * that finds it changed reads and checks again.
 */
export async function changeWebhook(
  db: Db,
  env: Pick<Bindings, "ENCRYPTION_KEY" | "WEBHOOK_ALLOWED_HOSTS" | "OUTBOUND_ALLOWED_HOSTS">,
  organizationId: string,
  inboxId: string,
  webhookId: string,
  body: WebhookInput,
): Promise<WebhookView> {
  for (let tries = 0; tries < TRIES; tries++) {
    const { webhook } = await getWebhook(db, organizationId, inboxId, webhookId);
    checkWebhookRules(env, {
      url: body.url,
      templatePreset: body.templatePreset ?? webhook.templatePreset,
      customTemplate: body.customTemplate,
      storedTemplate: webhook.customTemplate,
      direction: body.direction ?? webhook.direction,
      conversationEvents: body.conversationEvents ?? webhook.conversationEvents,
    });
    const changed = await db
      .update(webhooks)
      .set(await columnsOf(env, webhook, body))
      .where(and(eq(webhooks.id, webhook.id), eq(webhooks.organizationId, organizationId), ...asRead(webhook)))
      .returning({ id: webhooks.id });
    if (changed.length) return getWebhook(db, organizationId, inboxId, webhook.id);
  }
  throw conflict("The webhook is being changed by other requests at the same time; read it again and retry.");
}

/** The columns checkWebhookRules and columnsOf read, as they were read. */
const asRead = (w: WebhookRow) => [
  eq(webhooks.url, w.url),
  eq(webhooks.direction, w.direction),
  eq(webhooks.templatePreset, w.templatePreset),
  eq(webhooks.conversationEvents, w.conversationEvents),
  w.customTemplate === null ? isNull(webhooks.customTemplate) : eq(webhooks.customTemplate, w.customTemplate),
];

/**
 * The columns of a change to `current`. Enabling starts afresh: the service's reason for disabling and the failure
 * run are cleared. Pointed at another server (credentialsStay), the secret token and the custom headers stay behind
 * unless the change gives new ones: whoever may edit the URL could otherwise collect them at their own server, and
 * a masked header value sent back is dropped rather than kept (docs/decisions.md, "Credentials stay with their
 * server").
 */
async function columnsOf(env: Pick<Bindings, "ENCRYPTION_KEY">, current: WebhookRow, body: WebhookInput) {
  const { secretToken, headers, ...changes } = body;
  const stay = credentialsStay(current.url, changes.url ?? current.url);
  const stored = headers ? await storedHeaders(env, current) : null;
  return {
    ...changes,
    ...(headers
      ? await sealedHeaders(env, headersToStore("headers", headers, stored, stay))
      : headers === null || !stay
        ? await sealedHeaders(env, {})
        : {}),
    secretTokenSealed: secretToken === undefined && !stay ? null : await sealSecretToken(secretToken, env),
    ...(changes.isEnabled && !current.isEnabled ? { disabledAt: null, disabledReason: null, failingSince: null } : {}),
    updatedAt: Date.now(),
  };
}

/** The headers stored, to keep those sent back masked; none when their seal no longer opens (each must be given). */
async function storedHeaders(env: Pick<Bindings, "ENCRYPTION_KEY">, current: WebhookRow) {
  return openedHeaders(current, env).catch((err) => {
    if (!cannotOpen(err)) throw err;
    return null;
  });
}
