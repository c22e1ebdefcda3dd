// What a platform's check of the webhook URL came to, kept on the channel (docs/decisions.md, "Messaging channels"):
// Meta and Slack check the URL when the business saves it in their dashboard, and say little when it fails, so the
// channel's record says "verified at" or when and why it was refused.
import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import { inboxChannels } from "../../db/schema";
import type { Db } from "../../env";
import { isD1Error } from "../../lib/errors";
import { logWarn } from "../../lib/log";
import { TtlCache } from "../../lib/ttl-cache";
import type { Handshake } from "./types";

export { WEBHOOK_REFUSALS } from "../../db/schema";

/**
 * A refusal is written at most once in this time per channel: anyone may send a wrong verify token or an unsigned
 * url_verification, and each must not be a write on the control plane's one writer.
 */
export const REFUSAL_INTERVAL_MS = 10_000;

/** The channels whose refusal this isolate wrote within REFUSAL_INTERVAL_MS: the next is not even asked of D1. */
const refusalsKept = new TtlCache<true>(REFUSAL_INTERVAL_MS);

/**
 * `updatedAt` is the settings' last change (the console's form is made again when it moves): a platform's check or
 * event is none.
 */
export const settingsUnchanged = sql`${inboxChannels.updatedAt}`;

/**
 * Keeps what `check` came to on the inbox's channel: a pass as `webhookVerifiedAt` (the refusal before it cleared), a
 * refusal as its time and reason. The record is not the answer: a write D1 refuses is logged, and the platform is
 * answered all the same (its check passed or failed on its own).
 */
export async function keepHandshake(db: Db, inboxId: string, check: Handshake, now = Date.now()): Promise<void> {
  try {
    if (check.passed) {
      refusalsKept.forget(inboxId);
      await db
        .update(inboxChannels)
        .set({ webhookVerifiedAt: now, webhookRefusedAt: null, webhookRefusal: null, updatedAt: settingsUnchanged })
        .where(eq(inboxChannels.inboxId, inboxId));
      return;
    }
    if (refusalsKept.get(inboxId, now)) return;
    refusalsKept.set(inboxId, true, now);
    await db
      .update(inboxChannels)
      .set({ webhookRefusedAt: now, webhookRefusal: check.refusal, updatedAt: settingsUnchanged })
      .where(
        and(
          eq(inboxChannels.inboxId, inboxId),
          or(isNull(inboxChannels.webhookRefusedAt), lt(inboxChannels.webhookRefusedAt, now - REFUSAL_INTERVAL_MS)),
        ),
      );
  } catch (err) {
    if (!isD1Error(err)) throw err;
    logWarn("the platform's check of the webhook URL not kept", { inboxId, error: String(err) });
  }
}
