import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/lib/crypto";
import { documentOf } from "../support/api";
import generated from "../../console/src/api/schema.d.ts?raw";
import widgetGenerated from "../../widget/src/api-schema.d.ts?raw";

/**
 * The console's and the widget's API types (console/src/api/schema.d.ts, widget/src/api-schema.d.ts)
 * are generated from the OpenAPI document by `npm run console:types`, which writes the document's hash
 * into each file. A route schema changed without regenerating them fails here, so neither compiles
 * against an old API.
 */
describe("the generated API types", () => {
  for (const [file, text] of [
    ["console/src/api/schema.d.ts", generated],
    ["widget/src/api-schema.d.ts", widgetGenerated],
  ])
    it(`${file} matches the OpenAPI document the worker serves (else run \`npm run console:types\`)`, async () => {
      const doc = await documentOf(await SELF.fetch("http://localhost/api/v1/openapi.json"));
      delete doc.servers;
      const recorded = /^\/\/ openapi-sha256: ([0-9a-f]{64})$/m.exec(text)?.[1];
      expect(recorded, `${file} has no openapi-sha256 line`).toBeTruthy();
      expect(await sha256Hex(JSON.stringify(doc)), `${file} is stale: run \`npm run console:types\``).toBe(recorded);
    });
});
