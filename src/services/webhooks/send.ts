import type { Bindings } from "../../env";
import { cannotOpen, decryptSecret } from "../../lib/crypto";
import { describeFetchFailure } from "../../lib/outbound-errors";
import { keepsCredentials, redirectedMethod } from "../../lib/redirects";
import { outboundAllowedHosts, webhookUrlProblem } from "../../lib/ssrf";
import type { WebhookRow } from "./config";
import type { DeliveryData } from "./conversation-payloads";
import { openedHeaders } from "./headers";
import { buildPayload } from "./payloads";
import { signature } from "./signature";
import { TemplateError } from "./templates";

const DEFAULT_TIMEOUT_MS = 30_000;
const MAX_REDIRECTS = 3;
const RESPONSE_KEPT_CHARS = 4_096;

/** What one attempt came to. */
export interface Outcome {
  requestBody?: string;
  responseStatus?: number;
  responseBody?: string;
  durationMs?: number;
  error?: string;
  /**
   * The receiver was asked and answered non-2xx, timed out or could not be reached: a later attempt
   * may succeed. A payload that cannot be built or a URL that is refused would fail the same way again.
   */
  retryable?: boolean;
}

export const succeeded = (o: Outcome) =>
  o.responseStatus !== undefined && o.responseStatus >= 200 && o.responseStatus < 300;

/**
 * Pushes one event to one webhook: headers, signature, SSRF check before each hop, time-out. Redirects are followed
 * with the same method and body (307, 308, and 301 and 302 too: lib/redirects.ts), except a 303.
 * `eventId` is the id the receiver deduplicates by (webhook-id header, signature): the message's, or
 * the lifecycle event's.
 */
export async function send(env: Bindings, eventId: string, webhook: WebhookRow, data: DeliveryData): Promise<Outcome> {
  let body: string;
  try {
    body = buildPayload(webhook.templatePreset, data, webhook.customTemplate ?? undefined);
  } catch (err) {
    // The webhook's own template refused (recorded on the attempt); an error of ours fails the batch, to be retried.
    if (!(err instanceof TemplateError)) throw err;
    return { error: `The payload could not be built: ${err.message}` };
  }
  let custom: Record<string, string>;
  try {
    custom = await openedHeaders(webhook, env);
  } catch (err) {
    if (!cannotOpen(err)) throw err;
    return {
      requestBody: body,
      error: "The custom headers could not be opened (ENCRYPTION_KEY unset or changed since); save them again.",
    };
  }
  let headers: Headers;
  try {
    headers = new Headers(custom);
  } catch (err) {
    return { requestBody: body, error: `Invalid custom headers: ${(err as Error).message}` };
  }
  headers.set("Content-Type", "application/json");
  headers.set("User-Agent", "assistant-platform-webhooks/1");
  const timestamp = Math.floor(Date.now() / 1000);
  headers.set("webhook-id", eventId);
  headers.set("webhook-timestamp", String(timestamp));
  if (webhook.secretTokenSealed) {
    const secret = await decryptSecret(webhook.secretTokenSealed, env.ENCRYPTION_KEY);
    headers.set("X-Webhook-Secret", secret);
    headers.set("webhook-signature", await signature(secret, eventId, timestamp, body));
  }
  const allowed = outboundAllowedHosts(env);
  const timeoutMs = Number(env.WEBHOOK_TIMEOUT_MS) || DEFAULT_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const started = Date.now();
  let url = webhook.url;
  try {
    for (let hop = 0; ; hop++) {
      const problem = webhookUrlProblem(url, allowed);
      if (problem)
        return { requestBody: body, error: hop ? `Redirect refused: ${problem}` : `URL refused: ${problem}` };
      const res = await fetch(url, { method: webhook.method, headers, body, redirect: "manual", signal: timeout });
      const location = res.headers.get("Location");
      if (res.status >= 300 && res.status < 400 && location) {
        await res.body?.cancel();
        // A 303 asks for a GET of another page, which would carry no event and, answering 200, pass for a delivery
        // (a sign-in page in front of the receiver, say): the push ends there, a failure naming where it pointed.
        if (redirectedMethod(res.status, webhook.method) !== webhook.method)
          return {
            requestBody: body,
            responseStatus: res.status,
            durationMs: Date.now() - started,
            error:
              `The receiver answered ${res.status} (See Other, to ${new URL(location, url)}); ` +
              "a push is not sent on as a GET.",
            retryable: true,
          };
        if (hop >= MAX_REDIRECTS)
          return {
            requestBody: body,
            responseStatus: res.status,
            durationMs: Date.now() - started,
            error: "Too many redirects.",
            retryable: true,
          };
        url = new URL(location, url).toString();
        if (!keepsCredentials(new URL(webhook.url), new URL(url)))
          for (const name of [...Object.keys(custom), "X-Webhook-Secret"]) headers.delete(name);
        continue;
      }
      const text = (await res.text()).slice(0, RESPONSE_KEPT_CHARS);
      const durationMs = Date.now() - started;
      const ok = res.status >= 200 && res.status < 300;
      return {
        requestBody: body,
        responseStatus: res.status,
        responseBody: text,
        durationMs,
        error: ok ? undefined : `The receiver answered ${res.status}.`,
        retryable: !ok,
      };
    }
  } catch (err) {
    const timedOut = (err as Error).name === "TimeoutError" || timeout.aborted;
    return {
      requestBody: body,
      durationMs: Date.now() - started,
      // What the delivery record shows: the host that did not resolve, the port that refused, the time-out.
      error: await describeFetchFailure(err, url, timedOut ? timeoutMs : undefined),
      retryable: true,
    };
  }
}
