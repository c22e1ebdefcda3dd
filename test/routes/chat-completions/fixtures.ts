import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { and, eq } from "drizzle-orm";
import { models, organizations, organizationUsage } from "../../../src/db/schema";
import { currentMonth } from "../../../src/services/organizations";
import { createParser } from "eventsource-parser";
import type { SseEvent } from "../../../src/services/llm/sse";
import { data, db, seedOwner, unique, type Actor } from "../../harness";
import { createChatbot } from "../../fixtures/chatbots";
import type { Schemas } from "../../support/api";
import { objectMessages } from "../../support/object-messages";
import type { ChatCompletionBody, UpstreamRequest } from "../../support/platforms/recorded";

/** Key the local upstream accepts (test/support/openai-upstream.mjs). */
export const UPSTREAM_API_KEY = "sk-test-upstream-0123456789";
export { LOCAL_LLM as LOCAL_LLM_ID } from "../../fixtures/chatbots";
export const WORKERS_AI_LLM_ID = "00000000-0000-7000-8000-000000000011";
export const PATH = "/chat/completions";
/** The messages of the gateway's tests: one question, which the local model answers `You said: "<question>".`. */
export const QUESTION = [{ role: "user" as const, content: "What are your opening hours?" }];

export async function enableGateway(organizationId: string, on = true) {
  await db().update(organizations).set({ canUseAiGateway: on }).where(eq(organizations.id, organizationId));
}

/** An owner whose organization may use the gateway. */
export async function gatewayOwner(): Promise<Actor> {
  const owner = await seedOwner("gateway");
  await enableGateway(owner.organizationId);
  return owner;
}

/**
 * Registers an openai_compatible model (a language model, or an embedding model with `path` and
 * `dimensions`) on the local upstream through the API, as the owner (so
 * its key is encrypted as in production), then points it at `TEST_UPSTREAM_URL/v1` in the
 * database: the API's `baseUrl` validation (z.httpUrl) rejects IP hosts such as 127.0.0.1.
 */
export async function upstreamModel(
  owner: Actor,
  opts: {
    modelName?: string;
    apiKey?: string;
    path?: "/large-language-models/" | "/embedding-models/" | "/reranker-models/";
    dimensions?: number;
  } = {},
) {
  const res = await owner.fetch("POST", opts.path ?? "/large-language-models/", {
    name: unique("upstream"),
    provider: "openai_compatible",
    modelName: opts.modelName ?? unique("echo"),
    baseUrl: "https://llm.example.com/v1",
    apiKey: opts.apiKey ?? UPSTREAM_API_KEY,
    ...(opts.dimensions ? { dimensions: opts.dimensions } : {}),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  const model = await res.json<Schemas["Model"]>();
  await db()
    .update(models)
    .set({ baseUrl: `${env.TEST_UPSTREAM_URL}/v1` })
    .where(eq(models.id, model.id));
  return model;
}

/**
 * Faults of the upstream before the first token that a fallback model takes over from, with how
 * many requests the primary gets for one reply: MODEL_RETRIES is 2 in tests, so 429 and lost
 * connections are tried 3 times, a 500 and an answer that says nothing once.
 */
export const PRE_TOKEN_FAULTS = [
  { fault: "fail-500", attempts: 1 },
  { fault: "fail-429", attempts: 3 },
  { fault: "fail-connect", attempts: 3 },
  { fault: "empty", attempts: 1 },
];

/**
 * An assistant whose model is `primaryName` on the upstream (a fault name such as `fail-500x99-<id>`
 * makes it fail) with a fallback model that answers (`echo-<id>`); `overrides` go to POST /chatbots/.
 */
export async function assistantWithFallback(
  owner: Actor,
  primaryName: string,
  overrides: Record<string, unknown> = {},
) {
  const fallbackName = `echo-${crypto.randomUUID()}`;
  const primary = await upstreamModel(owner, { modelName: primaryName });
  const fallback = await upstreamModel(owner, { modelName: fallbackName });
  const bot = await createChatbot(owner, {
    largeLanguageModel: primary.id,
    fallbackLargeLanguageModel: fallback.id,
    ...overrides,
  });
  return { bot, primary, fallback, primaryName, fallbackName };
}

/** The model a reply was stored with (`model_id`: the one that answered it), as its conversation's object holds it. */
export const storedModelOf = async (reply: { conversationId: string; message: { id: string } | null }) =>
  (await objectMessages<{ model_id: string }>(reply.conversationId, `id = '${reply.message!.id}'`))[0]?.model_id;

/** What the upstream last received for a model name: `{headers: {authorization}, body}`. */
export async function lastUpstreamRequest<Body = ChatCompletionBody>(modelName: string) {
  const res = await fetch(`${env.TEST_UPSTREAM_URL}/last-request?model=${encodeURIComponent(modelName)}`);
  expect(res.status).toBe(200);
  return res.json<UpstreamRequest<Body>>();
}

/** How many requests the upstream has received for a model name. */
export const upstreamRequestCount = async (modelName: string) =>
  (
    await (
      await fetch(`${env.TEST_UPSTREAM_URL}/request-count?model=${encodeURIComponent(modelName)}`)
    ).json<{ count: number }>()
  ).count;

export interface TimedEvent extends SseEvent {
  /** Milliseconds from `start` to the read that completed this event. */
  at: number;
  /** Which read (0-based) completed it. */
  read: number;
}

/** Reads an event stream incrementally, noting when each event arrived. */
export async function readEvents(res: Response, start = Date.now()): Promise<TimedEvent[]> {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  const events: TimedEvent[] = [];
  let at = 0;
  let read = 0;
  const parser = createParser({ onEvent: (e) => events.push({ event: e.event ?? null, data: e.data, at, read }) });
  for (; ; read++) {
    const { done, value } = await reader.read();
    if (done) break;
    at = Date.now() - start;
    parser.feed(value);
  }
  return events;
}

/** The `data` of the default events, parsed, up to (not including) `[DONE]`. */
export const chunks = (events: SseEvent[]) =>
  events.filter((e) => e.event === null && e.data !== "[DONE]").map((e) => JSON.parse(e.data));

export const contentOf = (events: SseEvent[]) =>
  chunks(events)
    .map((c) => c.choices[0]?.delta?.content ?? "")
    .join("");

/** The organization's words this month (0 when nothing was recorded). */
export async function wordsUsed(organizationId: string): Promise<number> {
  const [row] = await (await data(organizationId))
    .select({ words: organizationUsage.wordsCount })
    .from(organizationUsage)
    .where(and(eq(organizationUsage.organizationId, organizationId), eq(organizationUsage.month, currentMonth())));
  return row?.words ?? 0;
}
