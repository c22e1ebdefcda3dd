import { describe, expect, it, vi } from "vitest";
import { usageIncrement } from "../../../src/services/usage";
import { CONFIGURED_PLANS, PREFIXES, data, expectError, seedMember, seedStaff, setPlan } from "../../harness";
import { bodyOf } from "../../support/api";
import {
  LOCAL_LLM_ID,
  PATH,
  QUESTION,
  UPSTREAM_API_KEY,
  gatewayOwner,
  lastUpstreamRequest,
  upstreamModel,
  wordsUsed,
} from "./fixtures";

describe("POST /chat/completions (non-streaming)", () => {
  it.each(PREFIXES)("answers with the local model by name under %s, in OpenAI's format", async (prefix) => {
    const owner = await gatewayOwner();
    const res = await owner.fetch("POST", PATH, { model: "Local LLM", messages: QUESTION }, { prefix });
    expect(res.status, await res.clone().text()).toBe(200);
    const body = await bodyOf<"POST /chat/completions/">(res);
    expect(body).toMatchObject({
      object: "chat.completion",
      model: "Local LLM",
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: 'You said: "What are your opening hours?".' },
          finish_reason: "stop",
        },
      ],
    });
    expect(body.id).toMatch(/^chatcmpl-[0-9a-f-]{36}$/);
    expect(Math.abs(body.created - Date.now() / 1000)).toBeLessThan(60);
    expect(body.usage).toEqual({ prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 });
  });

  it("answers a plain member too, by model id, with content given as text parts", async () => {
    const owner = await gatewayOwner();
    const member = await seedMember(owner);
    const res = await member.fetch("POST", PATH, {
      model: LOCAL_LLM_ID,
      messages: [
        { role: "system", content: [{ type: "text", text: "Be brief." }] },
        {
          role: "user",
          content: [
            { type: "text", text: "Hello" },
            { type: "text", text: "there" },
          ],
        },
      ],
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await bodyOf<"POST /chat/completions/">(res)).choices[0].message.content).toBe(
      "Hello! How can I help you today?",
    );
  });

  it("400 for a request that is not a chat completion, naming the field", async () => {
    const owner = await gatewayOwner();
    for (const [body, field] of [
      [{ model: "Local LLM" }, "messages"],
      [{ model: "Local LLM", messages: [] }, "messages"],
      [{ model: "Local LLM", messages: [{ role: "wizard", content: "hi" }] }, "messages.0.role"],
      [{ messages: QUESTION }, "model"],
      [{ model: "Local LLM", messages: QUESTION, temperature: "hot" }, "temperature"],
    ] as const) {
      const res = await owner.fetch("POST", PATH, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const err = await res.json<{ code: string; errors: Record<string, string[]> }>();
      expect(err.code).toBe("invalid");
      expect(
        Object.keys(err.errors).some((k) => k.startsWith(field)),
        `${JSON.stringify(err.errors)} names ${field}`,
      ).toBe(true);
    }
  });

  it("404 for a model another organization registered, by id or by name", async () => {
    const owner = await gatewayOwner();
    const stranger = await gatewayOwner();
    const theirs = await upstreamModel(stranger);
    for (const model of [theirs.id, theirs.name]) {
      const res = await owner.fetch("POST", PATH, { model, messages: QUESTION });
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ code: "not_found" });
    }
    expect((await stranger.fetch("POST", PATH, { model: theirs.id, messages: QUESTION })).status).toBe(200);
  });

  it("a model deleted, or the gateway switched off, through the API applies to the very next call", async () => {
    const staff = await seedStaff();
    const org = `/organizations/${staff.organizationId}/`;
    expect((await staff.fetch("PATCH", org, { canUseAiGateway: true })).status).toBe(200);
    const model = await upstreamModel(staff);
    expect((await staff.fetch("POST", PATH, { model: model.name, messages: QUESTION })).status).toBe(200);
    expect((await staff.fetch("DELETE", `/large-language-models/${model.id}/`)).status).toBe(204);
    expect((await staff.fetch("POST", PATH, { model: model.name, messages: QUESTION })).status).toBe(404);
    expect((await staff.fetch("POST", PATH, { model: LOCAL_LLM_ID, messages: QUESTION })).status).toBe(200);
    expect((await staff.fetch("PATCH", org, { canUseAiGateway: false })).status).toBe(200);
    expect((await staff.fetch("POST", PATH, { model: LOCAL_LLM_ID, messages: QUESTION })).status).toBe(403);
  });

  it("records the answer's words in the organization's usage", async () => {
    const owner = await gatewayOwner();
    const res = await owner.fetch("POST", PATH, { model: "Local LLM", messages: QUESTION });
    expect(res.status).toBe(200);
    await vi.waitFor(async () => expect(await wordsUsed(owner.organizationId)).toBe(7));
  });

  it("is refused (403) once the plan's monthly words are used, as a completion is (its words count)", async () => {
    const owner = await gatewayOwner();
    await setPlan(owner.organizationId, "free");
    // The Free plan's 100,000 words of this month are used.
    await usageIncrement(await data(owner.organizationId), owner.organizationId, { words: 100_000 }).run();
    for (const stream of [false, true]) {
      const res = await owner.fetch(
        "POST",
        PATH,
        { model: "Local LLM", messages: QUESTION, stream },
        { settings: CONFIGURED_PLANS },
      );
      const err = await expectError(res, 403, "permission_denied");
      expect(err.detail).toContain("100,000 words");
      expect(err).toMatchObject({ error: { code: "permission_denied" } });
    }
    expect(await wordsUsed(owner.organizationId)).toBe(100_000);
  });

  it("json_schema (snake_case) with the local model answers JSON valid against the schema", async () => {
    const owner = await gatewayOwner();
    const schema = {
      type: "object",
      properties: {
        answer: { type: "string" },
        confidence: { type: "number", minimum: 0 },
        tags: { type: "array", items: { type: "string" } },
        kind: { enum: ["faq", "other"] },
      },
      required: ["answer", "confidence", "tags", "kind"],
    };
    const res = await owner.fetch("POST", PATH, {
      model: "Local LLM",
      messages: QUESTION,
      response_format: { type: "json_schema", json_schema: { name: "reply", schema, strict: true } },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const parsed = JSON.parse((await bodyOf<"POST /chat/completions/">(res)).choices[0].message.content!);
    expect(parsed).toEqual({
      answer: 'You said: "What are your opening hours?".',
      confidence: 0,
      tags: [],
      kind: "faq",
    });
  });

  it("passes the request on to an openai_compatible model: key, model name, options, response format", async () => {
    const owner = await gatewayOwner();
    const model = await upstreamModel(owner);
    const res = await owner.fetch("POST", PATH, {
      model: model.id,
      messages: [{ role: "developer", content: "Be brief." }, ...QUESTION],
      temperature: 0.3,
      max_tokens: 5,
      response_format: {
        type: "json_schema",
        json_schema: { name: "x", schema: { type: "object", properties: { answer: { type: "string" } } } },
      },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const body = await bodyOf<"POST /chat/completions/">(res);
    expect(body.model).toBe(model.name);
    expect(body.choices[0].message.content).toBe("word1 word2 word3 word4 word5");
    expect(body.usage).toEqual({ prompt_tokens: 7, completion_tokens: 5, total_tokens: 12 });
    const sent = await lastUpstreamRequest(model.modelName);
    expect(sent.headers.authorization).toBe(`Bearer ${UPSTREAM_API_KEY}`);
    expect(sent.body).toMatchObject({
      model: model.modelName,
      messages: [{ role: "system", content: "Be brief." }, ...QUESTION],
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 5,
      temperature: 0.3,
      response_format: {
        type: "json_schema",
        json_schema: {
          name: "output",
          schema: { type: "object", properties: { answer: { type: "string" } } },
          strict: false,
        },
      },
    });
    await vi.waitFor(async () => expect(await wordsUsed(owner.organizationId)).toBe(5));
  });

  it("passes tools through and returns the model's tool call", async () => {
    const owner = await gatewayOwner();
    const model = await upstreamModel(owner);
    const tools = [
      {
        type: "function",
        function: {
          name: "get_weather",
          description: "Weather",
          parameters: { type: "object", properties: { city: { type: "string" } } },
        },
      },
    ];
    const res = await owner.fetch("POST", PATH, { model: model.name, messages: QUESTION, tools });
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await bodyOf<"POST /chat/completions/">(res)).choices[0]).toEqual({
      index: 0,
      message: {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city": "Paris"}' } },
        ],
      },
      finish_reason: "tool_calls",
    });
    expect((await lastUpstreamRequest(model.modelName)).body.tools).toEqual(tools);
  });

  // The JSON middleware camelizes keys except inside OPAQUE_FIELDS (src/lib/case.ts), which lists
  // `parameters` and `schema` so that JSON Schemas reach the model exactly as sent.
  it("keeps snake_case keys inside tool parameters and JSON schemas as sent", async () => {
    const owner = await gatewayOwner();
    const model = await upstreamModel(owner);
    const parameters = { type: "object", properties: { first_name: { type: "string" } }, required: ["first_name"] };
    const schema = { type: "object", properties: { opening_hours: { type: "string" } } };
    const res = await owner.fetch("POST", PATH, {
      model: model.id,
      messages: QUESTION,
      tools: [{ type: "function", function: { name: "lookup", parameters } }],
      response_format: { type: "json_schema", json_schema: { name: "x", schema } },
    });
    expect(res.status).toBe(200);
    const sent = (await lastUpstreamRequest(model.modelName)).body;
    expect(sent.tools![0].function.parameters).toEqual(parameters);
    expect(sent.response_format!.json_schema!.schema).toEqual(schema);
  });
});
