import { createRoute } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { checkWebhookRules, getWebhook, updateWebhook } from "../../services/webhooks/config";
import {
  type WebhookInput,
  webhookRecord,
  WebhookPatch,
  WebhookSchema,
  WebhookWrite,
} from "../../services/records/webhooks";
import { WEBHOOKS_TAG, WebhookParams } from "./schema";

/** PUT and PATCH: fields left out stay as they are (the secret token too, as it is never shown). */
async function changeWebhook(c: Context<AppEnv>, inboxId: string, webhookId: string, body: WebhookInput) {
  const access = await authorize(c, "webhook.manage");
  const { webhook } = await getWebhook(c.var.db, access.organizationId, inboxId, webhookId);
  const { secretToken, ...changes } = body;
  checkWebhookRules(c.env, {
    url: changes.url,
    templatePreset: changes.templatePreset ?? webhook.templatePreset,
    customTemplate: changes.customTemplate,
    storedTemplate: webhook.customTemplate,
    direction: changes.direction ?? webhook.direction,
    conversationEvents: changes.conversationEvents ?? webhook.conversationEvents,
  });
  await updateWebhook(c.var.db, c.env, access.organizationId, webhook, changes, secretToken);
  return webhookRecord(await getWebhook(c.var.db, access.organizationId, inboxId, webhook.id), c.env);
}

const route = (method: "put" | "patch") =>
  createRoute({
    method,
    path: "/inboxes/{inboxId}/webhooks/{webhookId}/",
    tags: [WEBHOOKS_TAG],
    summary: method === "put" ? "Replace a webhook's configuration" : "Update some fields of a webhook",
    description:
      "Needs `webhook.manage`. Fields left out stay as they are; `secretToken: null` removes the secret. " +
      "`isEnabled: true` re-enables a webhook the service disabled and clears `disabledAt` and `disabledReason`. " +
      "A new URL and a new custom template are checked as on creation (400 naming the field).",
    request: { params: WebhookParams, ...jsonBody(method === "put" ? WebhookWrite : WebhookPatch) },
    responses: { 200: json(WebhookSchema, "The updated webhook"), ...errorResponses(400, 403, 404) },
  });

export const registerReplaceWebhook = (r: Router) =>
  r.openapi(route("put"), async (c) => {
    const { inboxId, webhookId } = c.req.valid("param");
    return c.json(await changeWebhook(c, inboxId, webhookId, c.req.valid("json")), 200);
  });

export const registerPatchWebhook = (r: Router) =>
  r.openapi(route("patch"), async (c) => {
    const { inboxId, webhookId } = c.req.valid("param");
    return c.json(await changeWebhook(c, inboxId, webhookId, c.req.valid("json")), 200);
  });
