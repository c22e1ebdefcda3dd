import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/lib/crypto";
import generated from "../../console/src/api/schema.d.ts?raw";

/**
 * The console's API types (console/src/api/schema.d.ts) are generated from the OpenAPI document by
 * `npm run console:types`, which writes the document's hash into the file. A route schema changed
 * without regenerating them fails here, so the console never compiles against an old API.
 */
describe("the console's generated API types", () => {
  it("match the OpenAPI document the worker serves (else run `npm run console:types`)", async () => {
    const doc = (await (await SELF.fetch("http://localhost/api/v1/openapi.json")).json()) as Record<string, unknown>;
    delete doc.servers;
    const recorded = /^\/\/ openapi-sha256: ([0-9a-f]{64})$/m.exec(generated)?.[1];
    expect(recorded, "schema.d.ts has no openapi-sha256 line").toBeTruthy();
    expect(
      await sha256Hex(JSON.stringify(doc)),
      "console/src/api/schema.d.ts is stale: run `npm run console:types`",
    ).toBe(recorded);
  });
});
