import { describe, expect, it } from "vitest";
import { call, expectError, seedOwner } from "../../harness";
import { gatewayOwner, PATH, upstreamModel } from "./fixtures";

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
});
