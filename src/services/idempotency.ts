import { and, eq, isNull, lt } from "drizzle-orm";
import type { Db } from "../env";
import { idempotencyKeys } from "../db/schema";
import { ApiError } from "../lib/errors";

/** How long a key's outcome is kept and replayed (docs/decisions.md, "Resent messages"). */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
/** A first request still unfinished after this long died with its worker (a reply's time-outs are far shorter). */
export const UNFINISHED_AFTER_MS = 10 * 60_000;

export interface KeyScope {
  organizationId: string;
  /** `user:<id>` or `contact:<id>`: a key is only ever seen by the client that sent it. */
  owner: string;
  key: string;
}

export interface StoredOutcome {
  status: number;
  contentType: string;
  body: string;
}

/** An `Idempotency-Key` header: 1 to 255 visible ASCII characters (a UUID is the usual choice). */
export function checkKey(value: string): string {
  if (!/^[\x21-\x7e]{1,255}$/.test(value))
    throw new ApiError(
      400,
      "invalid",
      "Idempotency-Key must be 1 to 255 visible ASCII characters (a UUID, for example).",
    );
  return value;
}

/** SHA-256 of what makes two requests the same: method, path without its prefix, and the body with its keys sorted. */
export async function requestHash(method: string, path: string, body: unknown): Promise<string> {
  const text = `${method} ${path.replace(/^\/api(\/v1)?/, "")}\n${JSON.stringify(sorted(body))}`;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const sorted = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(sorted)
    : value && typeof value === "object"
      ? Object.fromEntries(
          Object.keys(value)
            .sort()
            .map((k) => [k, sorted((value as Record<string, unknown>)[k])]),
        )
      : value;

/**
 * Claims the key for this request, or says what an earlier request with it left: its outcome to
 * replay, or a refusal (422 for another request under the same key, or the same one in another
 * organization; 409 while the first is under way or never finished). A key older than 24 hours is free again.
 */
export async function claimKey(db: Db, scope: KeyScope, hash: string, now = Date.now()): Promise<StoredOutcome | null> {
  const claimed = await db
    .insert(idempotencyKeys)
    .values({ ...scope, requestHash: hash, createdAt: now })
    .onConflictDoUpdate({
      target: [idempotencyKeys.owner, idempotencyKeys.key],
      set: {
        organizationId: scope.organizationId,
        requestHash: hash,
        status: null,
        response: null,
        contentType: null,
        createdAt: now,
      },
      setWhere: lt(idempotencyKeys.createdAt, now - IDEMPOTENCY_TTL_MS),
    })
    .returning({ createdAt: idempotencyKeys.createdAt });
  if (claimed.length) return null;
  const [earlier] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.owner, scope.owner), eq(idempotencyKeys.key, scope.key)));
  if (!earlier) return claimKey(db, scope, hash, now); // expired and removed in between
  // A user's key is one row whatever organization the request acts in: the same method, path and body sent in
  // another organization is another request, never answered with the other organization's outcome.
  if (earlier.organizationId !== scope.organizationId) {
    throw new ApiError(
      422,
      "idempotency_key_reused",
      "This Idempotency-Key was used in another organization in the last 24 hours; send a new key with this request.",
    );
  }
  if (earlier.requestHash !== hash) {
    throw new ApiError(
      422,
      "idempotency_key_reused",
      "This Idempotency-Key was used for a different request in the last 24 hours; send a new key with a new request.",
    );
  }
  if (earlier.status === null) {
    if (now - earlier.createdAt < UNFINISHED_AFTER_MS) {
      throw new ApiError(
        409,
        "idempotency_in_progress",
        "A request with this Idempotency-Key is still under way; send it again in a moment to get its outcome.",
        undefined,
        { "Retry-After": "1" },
      );
    }
    throw new ApiError(
      409,
      "idempotency_unfinished",
      "The first request with this Idempotency-Key never finished (a restart on our side) and may have taken " +
        "effect: list the conversation's messages before sending it again with a new key.",
    );
  }
  return {
    status: earlier.status,
    contentType: earlier.contentType ?? "application/json",
    body: earlier.response ?? "",
  };
}

export async function saveOutcome(db: Db, scope: KeyScope, outcome: StoredOutcome) {
  await db
    .update(idempotencyKeys)
    .set({ status: outcome.status, contentType: outcome.contentType, response: outcome.body })
    .where(
      and(eq(idempotencyKeys.owner, scope.owner), eq(idempotencyKeys.key, scope.key), isNull(idempotencyKeys.status)),
    );
}

/** Frees a key whose request wrote nothing (refused before it reached the conversation). */
export async function releaseKey(db: Db, scope: KeyScope) {
  await db
    .delete(idempotencyKeys)
    .where(
      and(eq(idempotencyKeys.owner, scope.owner), eq(idempotencyKeys.key, scope.key), isNull(idempotencyKeys.status)),
    );
}

/** Housekeeping: keys past their 24 hours. */
export async function forgetExpiredKeys(db: Db, now = Date.now()) {
  await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, now - IDEMPOTENCY_TTL_MS));
}

/**
 * A reply's event stream as it is kept for a replay: pings dropped and consecutive text deltas
 * merged into one event (with the last one's `id:`), so a long reply is stored in a few events.
 */
export function condenseEvents(text: string): string {
  const out: { block: string; data?: Record<string, unknown>; id?: string }[] = [];
  for (const block of text.split("\n\n")) {
    const lines = block.split("\n").filter((l) => l && !l.startsWith(":"));
    if (!lines.length) continue;
    const event = lines
      .find((l) => l.startsWith("event:"))
      ?.slice(6)
      .trim();
    const data = lines
      .filter((l) => l.startsWith("data:"))
      .map((l) => l.slice(5).trimStart())
      .join("\n");
    const id = lines
      .find((l) => l.startsWith("id:"))
      ?.slice(3)
      .trim();
    let parsed: Record<string, unknown> | undefined;
    if (!event || event === "message") {
      try {
        parsed = JSON.parse(data);
      } catch {
        parsed = undefined;
      }
    }
    const delta = parsed && parsed.done === false && typeof parsed.content === "string" ? parsed : undefined;
    const last = out.at(-1);
    if (delta && last?.data) {
      last.data.content = `${last.data.content as string}${delta.content as string}`;
      last.id = id;
    } else out.push({ block: lines.join("\n"), data: delta ? { ...delta } : undefined, id });
  }
  return out
    .map((e) => (e.data ? `${e.id ? `id: ${e.id}\n` : ""}data: ${JSON.stringify(e.data)}\n\n` : `${e.block}\n\n`))
    .join("");
}
