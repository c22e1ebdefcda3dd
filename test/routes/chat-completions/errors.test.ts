import { describe, expect, it } from "vitest";
import { call, expectError, seedMember, seedOwner } from "../../harness";
import { readEvents } from "../../support/sse";
import { gatewayOwner, PATH, QUESTION, upstreamModel } from "./fixtures";

describe("gateway errors carry the OpenAI shape too", () => {
  it("for errors raised before the route (401, malformed JSON) and not elsewhere", async () => {
    const noKey = await expectError(
      await call("POST", "/api/v1/chat/completions", { model: "Local LLM", messages: [] }),
      401,
      "not_authenticated",
    );
    expect(noKey).toMatchObject({
      error: { message: noKey.detail, type: "authentication_error", code: "not_authenticated" },
    });
    const owner = await seedOwner();
    const malformed = await owner.fetch("POST", "/chat/completions", "{nope", {
      headers: { "Content-Type": "application/json" },
    });
    const body = await expectError(malformed, 400, "parse_error");
    expect(body).toMatchObject({ error: { type: "invalid_request_error", code: "parse_error" } });
    expect(await expectError(await call("GET", "/api/v1/users/current/"), 401)).not.toHaveProperty("error");
  });

  it("a model whose API key this deployment cannot open: 400 saying so (ENCRYPTION_KEY changed or unset)", async () => {
    const owner = await gatewayOwner();
    const model = await upstreamModel(owner);
    const body = { model: model.id, messages: [{ role: "user", content: "Hello" }] };
    for (const ENCRYPTION_KEY of ["another-key", undefined]) {
      const res = await owner.fetch("POST", PATH, body, { settings: { ENCRYPTION_KEY } });
      const refused = await expectError(res, 400);
      expect(refused.detail).toContain("cannot be decrypted; store it again");
    }
  });

  it("a provider's error echoing a long API key shows none of it: hidden before the text is cut", async () => {
    const owner = await gatewayOwner();
    // A JWT-style key (Zhipu, a proxy's token): 320 characters; the upstream answers 401 echoing the key it got.
    const key = `eyJhbGciOiJIUzI1NiJ9.${"a1B2c3D4".repeat(37)}.sig`.slice(0, 320);
    const model = await upstreamModel(owner, { apiKey: key });
    // Any member may use the gateway; the key is write-only, set by an owner.
    const member = await seedMember(owner);
    const res = await member.fetch("POST", PATH, { model: model.id, messages: QUESTION });
    const text = await res.text();
    expect(res.status, text).toBe(502);
    // "Incorrect API key provided: <key>" cut at 300 characters first no longer holds the whole key to hide.
    expect(text).not.toContain(key.slice(0, 40));
    expect(text).toContain("Incorrect API key provided: ***");
  });

  // error-200 answers as application/json, error-200-text the same body as text/plain.
  it.each(["error-200", "error-200-text"])(
    "a provider answering 200 with an error body (%s): 502 with its message, streamed or not",
    async (fault) => {
      const owner = await gatewayOwner();
      const model = await upstreamModel(owner, { modelName: `${fault}-${crypto.randomUUID()}` });
      const said = "The model provider failed: The provider is overloaded, try later.";
      const whole = await expectError(
        await owner.fetch("POST", PATH, { model: model.id, messages: QUESTION }),
        502,
        "upstream_error",
      );
      expect(whole).toMatchObject({ detail: said, error: { message: said } });
      const streamed = await owner.fetch("POST", PATH, { model: model.id, messages: QUESTION, stream: true });
      expect(streamed.status).toBe(200);
      const events = await readEvents(streamed);
      expect(events.map((e) => e.event)).toEqual(["error"]);
      expect(events[0].data).toMatchObject({ code: "upstream_error", detail: said });
    },
  );
});
