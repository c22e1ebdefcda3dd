import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/lib/crypto";
import { documentOf, type OpenApiDocument } from "../support/api";
import { widgetDocument } from "../../scripts/openapi-subset.mjs";
import generated from "../../console/src/api/schema.d.ts?raw";
import widgetGenerated from "../../widget/src/api-schema.d.ts?raw";

/**
 * The console's and the widget's API types (console/src/api/schema.d.ts, widget/src/api-schema.d.ts)
 * are generated from the OpenAPI document by `npm run console:types`, which writes the hash of what each was made
 * from into it: the whole document for the console, the widget's part (its paths and what they reach) for the
 * widget. A route schema changed without regenerating them fails here, so neither compiles against an old API.
 */
describe("the generated API types", () => {
  for (const [file, text, part] of [
    ["console/src/api/schema.d.ts", generated, (doc: OpenApiDocument) => doc],
    ["widget/src/api-schema.d.ts", widgetGenerated, widgetDocument],
  ] as const)
    it(`${file} matches the OpenAPI document the worker serves (else run \`npm run console:types\`)`, async () => {
      const doc = await documentOf(await SELF.fetch("http://localhost/api/v1/openapi.json"));
      delete doc.servers;
      const recorded = /^\/\/ openapi-sha256: ([0-9a-f]{64})$/m.exec(text)?.[1];
      expect(recorded, `${file} has no openapi-sha256 line`).toBeTruthy();
      const hash = await sha256Hex(JSON.stringify(part(doc)));
      expect(hash, `${file} is stale: run \`npm run console:types\``).toBe(recorded);
    });
});
