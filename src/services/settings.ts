import type { Bindings } from "../env";
import { ApiError } from "../lib/errors";
import { isPlaceholder, MIN_PASSWORD_LENGTH } from "../lib/placeholders";

import { lapsedPlanCleanupProblem, planSettingsProblem } from "./plans";
import { fileSpecs } from "./uploads/file-specs";
import { ingestionFaultProblem } from "./knowledge/ingestion-fault";
import { countSetting } from "./llm/retries";
import { clockProblem } from "../lib/clock";
import { SHARDS } from "./shards";

export interface SettingProblem {
  name: string;
  problem: string;
}

/**
 * Settings that are absent or unusable, for `GET /health`: the operator sees what a request would
 * answer 503 `not_configured` for before a client finds out. Reads only the environment.
 */
export function settingProblems(env: Bindings): SettingProblem[] {
  const problems: SettingProblem[] = [];
  const placeholder = "still the placeholder of .dev.vars.example, so it counts as not set";
  if (isPlaceholder("ENCRYPTION_KEY", env.ENCRYPTION_KEY)) {
    problems.push({
      name: "ENCRYPTION_KEY",
      problem:
        `${placeholder}: model API keys, webhook secret tokens and contact credentials cannot be stored (503 ` +
        `not_configured)`,
    });
  } else if (!env.ENCRYPTION_KEY) {
    problems.push({
      name: "ENCRYPTION_KEY",
      problem:
        "not set: model API keys, webhook secret tokens and contact credentials cannot be stored (503 not_configured)",
    });
  }
  // Optional settings: unset is fine, the example's value is not (docs/decisions.md, "Safe defaults").
  if (isPlaceholder("BOOTSTRAP_API_KEY", env.BOOTSTRAP_API_KEY)) {
    problems.push({ name: "BOOTSTRAP_API_KEY", problem: `${placeholder}: no first administrator is created with it` });
  }
  if (isPlaceholder("BOOTSTRAP_PASSWORD", env.BOOTSTRAP_PASSWORD)) {
    problems.push({
      name: "BOOTSTRAP_PASSWORD",
      problem: `${placeholder}: the first administrator cannot sign in with it`,
    });
  } else if (env.BOOTSTRAP_PASSWORD && env.BOOTSTRAP_PASSWORD.length < MIN_PASSWORD_LENGTH) {
    problems.push({
      name: "BOOTSTRAP_PASSWORD",
      problem: `shorter than ${MIN_PASSWORD_LENGTH} characters, so it is not used`,
    });
  }
  const plans = planSettingsProblem(env);
  if (plans) problems.push({ name: "PLANS", problem: plans });
  const cleanup = lapsedPlanCleanupProblem(env);
  if (cleanup) problems.push({ name: "LAPSED_PLAN_CLEANUP_DAYS", problem: cleanup });
  try {
    fileSpecs(env);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    problems.push({ name: "ALLOWED_FILE_SPECS", problem: err.detail });
  }
  for (const name of ["MODEL_TIMEOUT_MS", "MODEL_RETRIES", "MODEL_RETRY_MAX_DELAY_MS"] as const) {
    if (Number.isNaN(countSetting(env[name])))
      problems.push({ name, problem: "not a whole number of 0 or more: the default is used" });
  }
  const fault = ingestionFaultProblem(env);
  if (fault) problems.push({ name: "INGESTION_FAULT", problem: fault });
  const clock = clockProblem(env);
  if (clock) problems.push({ name: "CLOCK_OFFSET_MS", problem: clock });
  return problems;
}

/**
 * The deploy's resources as wrangler.toml binds them: a binding that is absent, or bound to
 * something else, makes every request that reaches it fail. Kept beside wrangler.toml by
 * test/conventions/settings.test.ts.
 */
export const REQUIRED_BINDINGS = [
  { name: "DB", kind: "D1 database", resource: "assistant-platform", needs: "prepare", usedFor: "every API request" },
  ...SHARDS.map((name, i) => ({
    name,
    kind: "D1 database",
    resource: `assistant-platform-conversations-${i + 1}`,
    needs: "prepare",
    usedFor: "the conversation search of the organizations placed on this shard",
  })),
  {
    name: "FILES",
    kind: "R2 bucket",
    resource: "assistant-platform-files",
    needs: "put",
    usedFor: "uploads, attachments and knowledge base files",
  },
  {
    name: "CONVERSATION",
    kind: "Durable Object namespace",
    resource: "Conversation",
    needs: "idFromName",
    usedFor: "messages and replies",
  },
  {
    name: "RATE_LIMITER",
    kind: "Durable Object namespace",
    resource: "RateLimiter",
    needs: "idFromName",
    usedFor: "rate limits of authenticated requests",
  },
  {
    name: "VECTOR_INDEX",
    kind: "Durable Object namespace",
    resource: "VectorIndex",
    needs: "idFromName",
    usedFor: "knowledge base search",
  },
  {
    name: "MANAGED_DATABASE",
    kind: "Durable Object namespace",
    resource: "ManagedDatabase",
    needs: "idFromName",
    usedFor: "managed SQL databases",
  },
  {
    name: "INBOX_EVENTS",
    kind: "Durable Object namespace",
    resource: "InboxEvents",
    needs: "idFromName",
    usedFor: "the live conversations inbox",
  },
  {
    name: "WEBHOOK_QUEUE",
    kind: "queue",
    resource: "webhook-deliveries",
    needs: "send",
    usedFor: "webhook deliveries",
  },
  {
    name: "INGESTION_QUEUE",
    kind: "queue",
    resource: "knowledge-ingestion",
    needs: "send",
    usedFor: "knowledge base file ingestion",
  },
  {
    name: "EVALUATION_QUEUE",
    kind: "queue",
    resource: "chatbot-evaluation",
    needs: "send",
    usedFor: "evaluation of answered questions",
  },
  {
    name: "CHANNEL_QUEUE",
    kind: "queue",
    resource: "channel-work",
    needs: "send",
    usedFor: "messaging channels (events taken in, replies sent)",
  },
] as const;

export interface ResourceProblem extends SettingProblem {
  kind: string;
}

/** Bindings of wrangler.toml the running deploy lacks, by name, for `GET /health`. */
export function resourceProblems(env: Bindings): ResourceProblem[] {
  const bound = env as unknown as Record<string, Record<string, unknown> | undefined>;
  return REQUIRED_BINDINGS.filter((b) => typeof bound[b.name]?.[b.needs] !== "function").map((b) => ({
    name: b.name,
    kind: b.kind,
    problem:
      `the ${b.kind} "${b.resource}" is not bound as ${b.name} (wrangler.toml); ${b.usedFor} cannot work ` +
      `without it`,
  }));
}
