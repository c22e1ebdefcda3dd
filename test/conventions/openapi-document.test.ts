import { SELF } from "cloudflare:test";
import { OpenAPIHono } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { OPENAPI_CONFIG, registerSecuritySchemes } from "../../src/app";
import type { AppEnv } from "../../src/env";
import { createRouter } from "../../src/lib/openapi";
import { ROUTE_GROUPS } from "../../src/routes";
import { registerWebhookPayloads } from "../../src/routes/webhooks/payloads";

/** The document as the worker built it before routes were registered per path segment: every group registered up front
 * in one app. */
async function eagerDocument(origin: string) {
  const app = new OpenAPIHono<AppEnv>();
  const api = createRouter();
  for (const group of ROUTE_GROUPS) (await group.load())(api);
  app.route("/api/v1", api);
  app.route("/api", api);
  registerSecuritySchemes(app);
  registerWebhookPayloads(app);
  return JSON.stringify(app.getOpenAPI31Document({ ...OPENAPI_CONFIG, servers: [{ url: origin }] }));
}

describe("OpenAPI document, built on the first request for it", () => {
  it(
    "is byte-identical to the eager build, under every path and origin, whichever route groups were built " + "before",
    async () => {
      // Some segments' apps exist already (others do not) when the document is first asked for.
      await SELF.fetch("https://example.com/api/v1/permissions/");
      await SELF.fetch("https://example.com/api/chatbots/");
      for (const origin of ["https://example.com", "http://other.example:8787"]) {
        const expected = await eagerDocument(origin);
        for (const path of ["/api/v1/openapi.json", "/api/openapi.json", "/api/schema/"]) {
          const res = await SELF.fetch(`${origin}${path}`);
          expect(res.status).toBe(200);
          expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
          const served = await res.text();
          expect(served.length, path).toBe(expected.length);
          expect(served === expected, `${origin}${path}`).toBe(true);
        }
      }
    },
  );
});
