import type { Bindings } from "../env";

/**
 * The one clock of time-of-day decisions (an inbox's business hours): the real time, moved by
 * `CLOCK_OFFSET_MS` where `ENVIRONMENT` is `development` or `test`, so a browser test can put the
 * worker outside business hours without waiting for the night. A deployment (no ENVIRONMENT)
 * refuses the offset: the real time is used and `GET /health` names the setting.
 * Timestamps that are stored (messages, sessions, rate limits) keep the real time.
 */
type ClockSettings = Pick<Bindings, "ENVIRONMENT" | "CLOCK_OFFSET_MS">;

const ALLOWED_ENVIRONMENTS = ["development", "test"];

/** Why `CLOCK_OFFSET_MS` is not used (null when it is, or is unset). */
export function clockProblem(env: ClockSettings): string | null {
  const raw = env.CLOCK_OFFSET_MS?.trim();
  if (!raw) return null;
  if (!ALLOWED_ENVIRONMENTS.includes(env.ENVIRONMENT ?? ""))
    return "refused: only where ENVIRONMENT is development or test; the real time is used";
  if (!/^-?\d+$/.test(raw)) return "not a whole number of milliseconds; the real time is used";
  return null;
}

/** The offset in milliseconds the clock adds to the real time (0 when refused or unset). */
export const clockOffset = (env: ClockSettings): number =>
  env.CLOCK_OFFSET_MS?.trim() && !clockProblem(env) ? Number(env.CLOCK_OFFSET_MS) : 0;

/** Now, as the clock reads it. */
export const clockNow = (env: ClockSettings, real = Date.now()): number => real + clockOffset(env);
