import { createRoute } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { changeWebhook } from "../../services/webhooks/change";
import {
  type WebhookInput,
  webhookRecord,
  WebhookPatch,
  WebhookSchema,
  WebhookWrite,
} from "../../services/records/webhooks";
import { WEBHOOKS_TAG, WebhookParams } from "./schema";

/** PUT and PATCH: fields left out stay as they are (the secret token too, as it is never shown). */
async function changed(c: Context<AppEnv>, inboxId: string, webhookId: string, body: WebhookInput) {
  const access = await authorize(c, "webhook.manage");
  return webhookRecord(await changeWebhook(c.var.db, c.env, access.organizationId, inboxId, webhookId, body), c.env);
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
      "A new URL and a new custom template are checked as on creation (400 naming the field). A URL moved to " +
      "another server (another host or port, or from https to http) drops the secret token and the custom headers " +
      "unless the request gives new ones. 409 when other changes to the webhook kept coming in while this one was " +
      "checked.",
    request: { params: WebhookParams, ...jsonBody(method === "put" ? WebhookWrite : WebhookPatch) },
    responses: { 200: json(WebhookSchema, "The updated webhook"), ...errorResponses(400, 403, 404, 409) },
  });

export const registerReplaceWebhook = (r: Router) =>
  r.openapi(route("put"), async (c) => {
    const { inboxId, webhookId } = c.req.valid("param");
    return c.json(await changed(c, inboxId, webhookId, c.req.valid("json")), 200);
  });

export const registerPatchWebhook = (r: Router) =>
  r.openapi(route("patch"), async (c) => {
    const { inboxId, webhookId } = c.req.valid("param");
    return c.json(await changed(c, inboxId, webhookId, c.req.valid("json")), 200);
  });
