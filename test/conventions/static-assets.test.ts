// The Workers pool serves wrangler.toml's `[assets]` (dist/assets, built by vitest.config.ts) as a
// deployment does: widget.js from the asset router with its `_headers`, the worker's own paths from
// the worker. test/node/clean-start.test.mjs checks that those paths skip the asset router.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";

describe("static assets beside the worker", () => {
  it("/widget.js is the built script, with the headers of dist/assets/_headers", async () => {
    const res = await SELF.fetch("http://localhost/widget.js");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/javascript/);
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=300");
    expect(await res.text()).toContain("data-web-chat-id");
  });

  it("the worker answers its own paths and paths that match no asset", async () => {
    expect(await (await SELF.fetch("http://localhost/health")).json()).toHaveProperty("status");
    const res = await SELF.fetch("http://localhost/no-such-asset.js");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ detail: "Not found.", code: "not_found" });
  });
});
