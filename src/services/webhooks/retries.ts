import type { Bindings } from "../../env";

/**
 * Delays before each automatic retry of a webhook with `retryFailedDeliveries` (CONTRACT section 8),
 * in seconds: attempt 2 comes 10 s after attempt 1 failed, attempt 9 a day after attempt 8. Nine
 * attempts over about 44.6 hours, then the event stays failed (redeliver-failed can send it again).
 */
export const RETRY_SCHEDULE_SECONDS = [10, 60, 300, 1_800, 7_200, 21_600, 43_200, 86_400] as const;

/** A webhook whose every delivery failed for this long is disabled (Stripe and Svix do the same). */
export const DISABLE_AFTER_MS = 3 * 86_400_000;

/** Cloudflare Queues delay a message by at most 12 hours; a longer wait is woken early and delayed again. */
export const MAX_QUEUE_DELAY_SECONDS = 43_200;

export interface RetryPolicy {
  /** Delay before attempt n + 1, at index n - 1. */
  delaysMs: number[];
  disableAfterMs: number;
}

/**
 * The schedule and the disable window, divided by `WEBHOOK_RETRY_TIME_SCALE` (default 1): the retry
 * clock runs that many times faster, so a chaos run can play an hour's outage in ten seconds with the
 * documented schedule. Never set in a deployment.
 */
export function retryPolicy(env: Pick<Bindings, "WEBHOOK_RETRY_TIME_SCALE">): RetryPolicy {
  const scale = Number(env.WEBHOOK_RETRY_TIME_SCALE);
  const k = Number.isFinite(scale) && scale > 0 ? scale : 1;
  return { delaysMs: RETRY_SCHEDULE_SECONDS.map((s) => (s * 1000) / k), disableAfterMs: DISABLE_AFTER_MS / k };
}

/** When attempt `attempt + 1` is due after attempt `attempt` failed at `now`; null when the schedule is over. */
export function nextAttemptAt(policy: RetryPolicy, attempt: number, now: number): number | null {
  const delay = policy.delaysMs[attempt - 1];
  return delay === undefined ? null : Math.round(now + delay);
}

/** Queue delay (whole seconds, capped) that wakes the consumer when an attempt is due. */
export const queueDelaySeconds = (dueAt: number, now: number) =>
  Math.min(MAX_QUEUE_DELAY_SECONDS, Math.max(0, Math.ceil((dueAt - now) / 1000)));
