import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { models } from "../../../src/db/schema";
import { scoreAnswer } from "../../../src/services/evaluation/judge";
import { bindingsWith, db, seedOwner, type Actor } from "../../harness";
import { upstreamModel } from "../../routes/chat-completions/fixtures";

/** Every metric at once, as a judge that ignores the prompt's "null without a reference" writes them. */
const VERDICT = {
  faithfulness: 0.9,
  answerRelevancy: 0.8,
  contextPrecision: 0.7,
  contextRecall: 0.6,
  answerCorrectness: 0.5,
  answerSimilarity: 0.4,
};

/** A judge model (openai_compatible) at a base URL this file answers itself with VERDICT (fetch is spied on). */
async function judge(owner: Actor) {
  const base = `https://judge-${crypto.randomUUID()}.example.com/v1`;
  const model = await upstreamModel(owner);
  await db().update(models).set({ baseUrl: base }).where(eq(models.id, model.id));
  const real = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith(base)) return real(input, init);
    return Response.json({
      object: "chat.completion",
      choices: [{ index: 0, message: { role: "assistant", content: JSON.stringify(VERDICT) }, finish_reason: "stop" }],
    });
  });
  return bindingsWith({ EVALUATION_MODEL: model.id });
}

const answer = {
  question: "When are you open?",
  answer: "We are open from nine to five.",
  contexts: ["Opening hours: nine to five, Monday to Friday."],
};

describe("evaluation: the judge model (EVALUATION_MODEL)", () => {
  afterEach(() => vi.restoreAllMocks());

  it("metrics that need a reference answer stay null without one, whatever the judge writes", async () => {
    const env = await judge(await seedOwner());
    // docs/decisions.md: "Metrics needing a reference answer are null on live traffic".
    for (const reference of [null, undefined, "  "])
      expect(await scoreAnswer(env, db(), { ...answer, reference })).toEqual({
        ...VERDICT,
        contextRecall: null,
        answerCorrectness: null,
        answerSimilarity: null,
      });
  });

  it("with a reference answer, every metric is the judge's", async () => {
    const env = await judge(await seedOwner());
    expect(await scoreAnswer(env, db(), { ...answer, reference: "Nine to five." })).toEqual(VERDICT);
  });
});
