import { SELF } from "cloudflare:test";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { seedOwner, type Actor } from "../../harness";
import { QUESTION, gatewayOwner, upstreamModel } from "./fixtures";

/** The official OpenAI client, pointed at the gateway with our API key. */
const client = (actor: Actor) =>
  new OpenAI({
    baseURL: "http://localhost/api/v1",
    apiKey: actor.key,
    maxRetries: 0,
    fetch: (url, init) => SELF.fetch(url, init),
  });

describe("the official OpenAI Node client against the gateway", () => {
  it("gets a non-streamed and a streamed answer from the local model, by name", async () => {
    const openai = client(await gatewayOwner());
    const completion = await openai.chat.completions.create({ model: "Local LLM", messages: QUESTION });
    expect(completion.choices[0].message.content).toBe('You said: "What are your opening hours?".');
    expect(completion.usage?.total_tokens).toBeGreaterThan(0);

    const stream = await openai.chat.completions.create({
      model: "Local LLM",
      messages: QUESTION,
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = "";
    let pieces = 0;
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta?.content;
      if (delta) (text += delta), pieces++;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe(completion.choices[0].message.content);
    expect(pieces).toBeGreaterThan(3);
    expect(usage?.completion_tokens).toBe(completion.usage?.completion_tokens);
  });

  it("gets a non-streamed and a streamed answer from an upstream-backed model, by id", async () => {
    const owner = await gatewayOwner();
    const model = await upstreamModel(owner);
    const openai = client(owner);
    const completion = await openai.chat.completions.create({ model: model.id, messages: QUESTION, max_tokens: 4 });
    expect(completion.model).toBe(model.name);
    expect(completion.choices[0].message.content).toBe("word1 word2 word3 word4");

    const stream = await openai.chat.completions.create({
      model: model.id,
      messages: QUESTION,
      max_tokens: 6,
      stream: true,
    });
    const deltas: string[] = [];
    for await (const chunk of stream) if (chunk.choices[0]?.delta?.content) deltas.push(chunk.choices[0].delta.content);
    expect(deltas).toEqual(["word1", " word2", " word3", " word4", " word5", " word6"]);
  });

  it("surfaces our errors as the client's typed errors, with our message", async () => {
    const off = client(await seedOwner());
    const denied = await off.chat.completions.create({ model: "Local LLM", messages: QUESTION }).catch((e) => e);
    expect(denied).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect(denied.message).toContain("canUseAiGateway");

    const owner = await gatewayOwner();
    const missing = await client(owner)
      .chat.completions.create({ model: "No Such Model", messages: QUESTION })
      .catch((e) => e);
    expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
    expect(missing.message).toContain("No Such Model");

    const failing = await upstreamModel(owner, { modelName: "fail-midstream" });
    const stream = await client(owner).chat.completions.create({ model: failing.id, messages: QUESTION, stream: true });
    const error = await (async () => {
      for await (const chunk of stream) void chunk;
    })().catch((e) => e);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(error.message).toContain("model provider");
  });
});
