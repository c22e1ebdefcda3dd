import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { ApiError } from "../lib/errors";
import { currentAccess } from "../services/access";
import { dataDb } from "../services/shards";
import {
  checkKey,
  claimKey,
  condenseEvents,
  releaseKey,
  requestHash,
  saveOutcome,
  type KeyScope,
} from "../services/idempotency";
import { logError } from "../lib/log";

/** Failures after the request reached the conversation: the message may be stored, so the outcome is kept. */
const TOOK_EFFECT = new Set(["upstream_error", "model_unavailable", "interrupted", "server_error"]);

/**
 * `Idempotency-Key` on a POST that stores a message (docs/decisions.md, "Resent messages"): the first
 * request with a key runs and its outcome is kept for 24 hours, whether a JSON body (a reply, a
 * receipt, a failure after the message was stored) or a reply's event stream (kept as it ends, even
 * when the client has gone); a request repeating the key gets that outcome again, marked
 * `Idempotent-Replayed: true`, and stores nothing. A request refused before it reached the
 * conversation (validation, permissions, not found) frees its key. `owner` says whose key it is.
 */
export const idempotent = (owner: (c: Context<AppEnv>) => Promise<Omit<KeyScope, "key">>) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const header = c.req.header("Idempotency-Key");
    if (header === undefined || c.req.method !== "POST") return next();
    const scope = { ...(await owner(c)), key: checkKey(header) };
    // The keys live with the organization's data plane (they grow with its traffic).
    const data = await dataDb(c.env, scope.organizationId);
    const hash = await requestHash(c.req.method, c.req.path, await c.req.json().catch(() => null));
    const earlier = await claimKey(data, scope, hash);
    if (earlier) {
      return c.body(earlier.body, earlier.status as 200, {
        "Content-Type": earlier.contentType,
        "Idempotent-Replayed": "true",
        ...(earlier.contentType.startsWith("text/event-stream")
          ? { "Cache-Control": "no-cache", "X-Accel-Buffering": "no" }
          : {}),
      });
    }
    await next();
    const res = c.res;
    const contentType = res.headers.get("Content-Type") ?? "application/json";
    if (res.ok && contentType.startsWith("text/event-stream") && res.body) {
      const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
      const record = relay(res.body, writable.getWriter()).then((text) =>
        saveOutcome(data, scope, { status: res.status, contentType, body: condenseEvents(text) }),
      );
      c.executionCtx.waitUntil(record.catch((err) => logError("idempotency record failed", { error: String(err) })));
      c.res = new Response(readable, res);
      return;
    }
    const err = c.error;
    if (res.ok || (err && !(err instanceof ApiError)) || (err instanceof ApiError && TOOK_EFFECT.has(err.code))) {
      await saveOutcome(data, scope, { status: res.status, contentType, body: await res.clone().text() });
    } else await releaseKey(data, scope);
  });

/** Keys of API clients (keys and console sessions): the user's, in the organization the request acts in. */
export const idempotentForUser = () =>
  idempotent(async (c) => ({
    organizationId: (await currentAccess(c)).organizationId,
    owner: `user:${c.var.principal.userId}`,
  }));

/**
 * Passes a reply's events on to the client and returns all of them once the reply has ended. It
 * reads to the end even when the client has gone (a `tee` would do, but workerd then held the
 * client's branch back until the end), and never waits for a slow client.
 */
async function relay(
  source: ReadableStream<Uint8Array>,
  client: WritableStreamDefaultWriter<Uint8Array>,
): Promise<string> {
  const reader = source.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let gone = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      if (!gone) client.write(value).catch(() => (gone = true));
    }
  } catch (err) {
    await client.abort(err).catch(() => undefined);
    throw err;
  }
  await client.close().catch(() => undefined);
  return text + decoder.decode();
}
