import type { Bindings } from "../../env";
import { ModelError, type ChatEvent, type ChatModel, type ChatRequest } from "./types";

export interface RetryPolicy {
  /** Attempts after the first (`MODEL_RETRIES`, default 2; 0: none). */
  retries: number;
  /** The first back-off; each later one doubles it. */
  baseDelayMs: number;
  /** No wait is longer, whatever the provider's `Retry-After` says (`MODEL_RETRY_MAX_DELAY_MS`, default 10 s). */
  maxDelayMs: number;
}

export const DEFAULT_MODEL_RETRIES = 2;
export const DEFAULT_MODEL_RETRY_MAX_DELAY_MS = 10_000;
const BASE_DELAY_MS = 500;

/** A wait that ends early, and quietly, when `signal` aborts (the client left). */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

const sleep: Sleep = (ms, signal) =>
  new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done);
  });

/** A non-negative integer setting; null when absent, NaN when set to anything else (see settingProblems). */
export function countSetting(value: string | undefined): number | null {
  if (value === undefined || value.trim() === "") return null;
  const n = Number(value);
  return Number.isInteger(n) && n >= 0 ? n : NaN;
}

/** The deployment's retry policy (README, "Variables and secrets"); a malformed value falls back to the default. */
export function retryPolicy(env: Bindings): RetryPolicy {
  const pick = (value: string | undefined, fallback: number) => {
    const n = countSetting(value);
    return n === null || Number.isNaN(n) ? fallback : n;
  };
  return {
    retries: pick(env.MODEL_RETRIES, DEFAULT_MODEL_RETRIES),
    baseDelayMs: BASE_DELAY_MS,
    maxDelayMs: pick(env.MODEL_RETRY_MAX_DELAY_MS, DEFAULT_MODEL_RETRY_MAX_DELAY_MS),
  };
}

/** The wait before attempt `attempt + 2`: the provider's `Retry-After` when given, else doubling back-off; capped. */
export function retryDelay(err: ModelError, attempt: number, policy: RetryPolicy): number {
  return Math.min(err.retryAfterMs ?? policy.baseDelayMs * 2 ** attempt, policy.maxDelayMs);
}

/**
 * A model whose retryable failures (a 429, a connection lost: `ModelError.retryable`) are asked
 * again, up to `policy.retries` times, but only while nothing has been yielded: once the first
 * token is out, a retry would repeat or contradict it, so the failure goes to the caller.
 * `sleep` is injectable so tests need not wait.
 */
export function withRetries(model: ChatModel, policy: RetryPolicy, wait: Sleep = sleep): ChatModel {
  if (policy.retries <= 0) return model;
  return { stream: (request) => retrying(model, request, policy, wait) };
}

async function* retrying(
  model: ChatModel,
  request: ChatRequest,
  policy: RetryPolicy,
  wait: Sleep,
): AsyncGenerator<ChatEvent> {
  for (let attempt = 0; ; attempt++) {
    let yielded = false;
    try {
      for await (const event of model.stream(request)) {
        yielded = true;
        yield event;
      }
      return;
    } catch (err) {
      if (
        yielded ||
        !(err instanceof ModelError) ||
        !err.retryable ||
        attempt >= policy.retries ||
        request.signal?.aborted
      )
        throw err;
      await wait(retryDelay(err, attempt, policy), request.signal);
      if (request.signal?.aborted) return;
    }
  }
}
