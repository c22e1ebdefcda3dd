import { describe, expect, it } from "vitest";
import { seedOwner } from "../../harness";
import { createChatbot } from "../../fixtures/chatbots";
import { WORKERS_AI_LLM_ID } from "../chat-completions/fixtures";
import {
  CAPACITY_429,
  DAILY_LIMIT_429,
  INTERNAL_500,
  NETWORK_LOST,
  workersAiStandIn,
  type WorkersAiFault,
} from "../../support/workers-ai-stand-in";
import { retryPolicy, withRetries } from "../../../src/services/llm/retries";
import { workersAiChatModel } from "../../../src/services/llm/workers-ai";
import { complete } from "../../../src/services/llm";
import { env } from "cloudflare:workers";
import { bodyOf } from "../../support/api";

// Workers AI failures before the first token go through the same retries as the OpenAI-compatible
// provider's (MODEL_RETRIES 2, MODEL_RETRY_MAX_DELAY_MS 20 in tests). The binding is a stand-in
// (test/support/workers-ai-stand-in.ts) given to the worker as its AI binding; a new conversation's
// direct turn runs in the worker, so the whole request path is the real one.
async function ask(faults: WorkersAiFault[]) {
  const owner = await seedOwner();
  const ai = workersAiStandIn(faults);
  const bot = await createChatbot(owner, { largeLanguageModel: WORKERS_AI_LLM_ID }, { AI: ai });
  const res = await owner.fetch(
    "POST",
    `/chatbots/${bot.id}/completions/`,
    { message: { content: "hello" } },
    { settings: { AI: ai } },
  );
  return { res, calls: ai.calls.length };
}

describe("a Workers AI model", () => {
  it.each([
    ["out of capacity (429, 3040)", CAPACITY_429],
    ["a 5xx", INTERNAL_500],
    ["a connection lost", NETWORK_LOST],
  ])("is asked again after %s, and the answer that follows is stored whole", async (_, fault) => {
    const { res, calls } = await ask([fault, fault]);
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await bodyOf<"POST /chatbots/{chatbotId}/completions/">(res)).content).toBe("Hello from Workers AI.");
    expect(calls).toBe(3);
  });

  it("gives up after MODEL_RETRIES with a 502 upstream_error", async () => {
    const { res, calls } = await ask([CAPACITY_429, CAPACITY_429, CAPACITY_429]);
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({ code: "upstream_error", detail: expect.stringContaining("3040") });
    expect(calls).toBe(3);
  });

  it("does not retry what no retry can outlast: the daily allocation used up (429, 3036)", async () => {
    const { res, calls } = await ask([DAILY_LIMIT_429]);
    expect(res.status).toBe(502);
    expect(calls).toBe(1);
  });

  it("waits as the OpenAI-compatible provider: doubling from 0.5 s, capped at MODEL_RETRY_MAX_DELAY_MS", async () => {
    const ai = workersAiStandIn([CAPACITY_429, NETWORK_LOST, CAPACITY_429]);
    const waits: number[] = [];
    const policy = retryPolicy({
      ...env,
      MODEL_RETRIES: "3",
      MODEL_RETRY_MAX_DELAY_MS: "1500",
    });
    const model = withRetries(workersAiChatModel(ai, "@cf/meta/llama"), policy, async (ms) => void waits.push(ms));
    expect((await complete(model, { messages: [{ role: "user", content: "hi" }] })).content).toBe(
      "Hello from Workers AI.",
    );
    expect(waits).toEqual([500, 1000, 1500]);
  });
});
