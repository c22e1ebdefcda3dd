import { describe, expect, it } from "vitest";
import { call } from "../../harness";
import { documentOf, type DocSchema } from "../../support/api";

const GATEWAY_ERROR = { $ref: "#/components/schemas/GatewayError" };

describe("the AI gateway in the OpenAPI document", () => {
  it("documents POST /chat/completions/ under both prefixes, JSON or event stream, tagged AI gateway", async () => {
    const doc = await documentOf(await call("GET", "/api/v1/openapi.json"));
    for (const prefix of ["/api/v1", "/api"]) {
      const path = doc.paths[`${prefix}/chat/completions/`];
      expect(Object.keys(path)).toEqual(["post"]);
      expect(path.post.tags).toEqual(["AI gateway"]);
      expect(Object.keys(path.post.responses["200"].content!).sort()).toEqual([
        "application/json",
        "text/event-stream",
      ]);
      expect(Object.keys(path.post.responses)).toEqual(expect.arrayContaining(["400", "401", "403", "404", "502"]));
      // Its errors carry OpenAI's `error` beside `detail` and `code` (errors.test.ts): documented, so clients see it.
      for (const [status, response] of Object.entries(path.post.responses))
        if (status >= "400") expect(response.content?.["application/json"].schema, status).toEqual(GATEWAY_ERROR);
    }
    const [contract, openAi] = doc.components.schemas.GatewayError.allOf ?? [];
    expect(contract).toEqual({ $ref: "#/components/schemas/Error" });
    expect(openAi.required).toEqual(["error"]);
    expect(Object.keys(openAi.properties?.error.properties ?? {})).toEqual(["message", "type", "code"]);
    const request = doc.components.schemas.ChatCompletionRequest;
    for (const [name, field] of Object.entries<DocSchema>(request.properties ?? {})) {
      expect(field.example !== undefined || field.description !== undefined, name).toBe(true);
    }
    expect(doc.components.schemas.ChatCompletion.properties?.choices).toBeTruthy();
  });
});
