import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { PREFIXES, call, expectError, NO_SUCH_ID, seedMember, seedOwner } from "../../harness";
import { expectDenied, expectNotFound } from "../../support/refusals";
import { UPSTREAM_API_KEY } from "../../support/openai-upstream.mjs";
import { testConnection } from "../../../src/services/model-check";
import { KINDS, createModel, storedModel } from "./fixtures";

type Outcome = { ok: boolean; durationMs: number; detail: string; sample: string | null };
const upstream = () => `${env.TEST_UPSTREAM_URL}/v1`;

describe("POST models/{id}/test-connection/", () => {
  it.each(KINDS.map((k, i) => [k.kind, k, PREFIXES[i % 2]] as const))(
    "a working %s model answers ok",
    async (_, k, prefix) => {
      const owner = await seedOwner();
      const model = await createModel(owner, k, {
        baseUrl: upstream(),
        apiKey: UPSTREAM_API_KEY,
        modelName: "m",
        ...(k.kind === "embedding" ? { dimensions: 8 } : {}),
      });
      const res = await owner.fetch("POST", `${k.path}${model.id}/test-connection/`, undefined, { prefix });
      expect(res.status, await res.clone().text()).toBe(200);
      const outcome = await res.json<Outcome>();
      expect(outcome).toMatchObject({ ok: true });
      expect(outcome.durationMs).toBeGreaterThanOrEqual(0);
      expect(outcome.sample).toMatch(
        k.kind === "llm" ? /^word1/ : k.kind === "embedding" ? /^8 dimensions$/ : /^1\.00, /,
      );
    },
  );

  it("a built-in local model answers ok", async () => {
    const owner = await seedOwner();
    const res = await owner.fetch("POST", `/large-language-models/${KINDS[0].builtIns[0]}/test-connection/`);
    expect(await res.json()).toMatchObject({ ok: true });
  });

  it("reports the provider's refusal without the key, and a wrong vector size", async () => {
    const owner = await seedOwner();
    const secret = "sk-wrong-0123456789abcdef";
    const wrongKey = await createModel(owner, KINDS[0], { baseUrl: upstream(), apiKey: secret });
    const res = await owner.fetch("POST", `/large-language-models/${wrongKey.id}/test-connection/`);
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(text).not.toContain(secret);
    expect(JSON.parse(text)).toMatchObject({ ok: false, detail: expect.stringMatching(/401|API key/i) });
    const failing = await createModel(owner, KINDS[0], {
      baseUrl: upstream(),
      apiKey: UPSTREAM_API_KEY,
      modelName: "fail-500",
    });
    expect(
      await (await owner.fetch("POST", `/large-language-models/${failing.id}/test-connection/`)).json(),
    ).toMatchObject({ ok: false });
    const wrongSize = await createModel(owner, KINDS[1], {
      baseUrl: upstream(),
      apiKey: UPSTREAM_API_KEY,
      dimensions: 16,
    });
    expect(
      await (await owner.fetch("POST", `/embedding-models/${wrongSize.id}/test-connection/`)).json(),
    ).toMatchObject({ ok: false, detail: expect.stringMatching(/16/) });
  });

  it("gives up after its time limit", async () => {
    const owner = await seedOwner();
    const slow = await createModel(owner, KINDS[0], {
      baseUrl: upstream(),
      apiKey: UPSTREAM_API_KEY,
      modelName: "delay-2000",
    });
    const outcome = await testConnection(env, await storedModel(slow.id), 300);
    expect(outcome).toMatchObject({ ok: false, detail: expect.stringMatching(/did not answer within 0.3 s/) });
  });

  it("403 for a member who is not an owner", async () => {
    const owner = await seedOwner();
    const model = await createModel(owner, KINDS[0], { baseUrl: upstream(), apiKey: UPSTREAM_API_KEY });
    const member = await seedMember(owner, ["chatbot.manage"]);
    await expectDenied(await member.fetch("POST", `/large-language-models/${model.id}/test-connection/`));
  });

  it("404 for another organization's model, an unknown id, or a model of another kind", async () => {
    const owner = await seedOwner();
    const model = await createModel(owner, KINDS[0]);
    const stranger = await seedOwner();
    await expectNotFound(await stranger.fetch("POST", `/large-language-models/${model.id}/test-connection/`));
    await expectError(await owner.fetch("POST", `/large-language-models/${NO_SUCH_ID}/test-connection/`), 404);
    await expectError(await owner.fetch("POST", `/embedding-models/${model.id}/test-connection/`), 404);
  });

  it("401 without a key (the endpoint takes no body, so no 400)", async () => {
    await expectError(
      await call("POST", `/api/v1/large-language-models/${NO_SUCH_ID}/test-connection/`),
      401,
      "not_authenticated",
    );
  });
});
