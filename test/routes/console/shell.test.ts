import { SELF, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";

const get = (path: string) => SELF.fetch(`http://localhost${path}`);

/** The CSP every console document carries: only the console's own scripts and styles, nothing inline. */
function expectStrictCsp(res: Response) {
  const csp = res.headers.get("Content-Security-Policy") ?? "";
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("style-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toContain("unsafe-inline");
  expect(csp).not.toContain("unsafe-eval");
}

describe("the operator console at /console/", () => {
  it("serves the shell: a document without inline script or style, under a strict CSP", async () => {
    const res = await get("/console/");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/text\/html/);
    expectStrictCsp(res);
    const html = await res.text();
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/src="\/console\/assets\/app-[A-Z0-9]+\.js"/);
      expect(body.trim()).toBe("");
    }
    expect(html).not.toMatch(/<style\b|\sstyle=/);
    expect(html).toMatch(/<link rel="stylesheet" href="\/console\/assets\/app-[A-Z0-9]+\.css">/);
  });

  // /console/ names the start page's chunk; a page's address gets the copy naming that page's (the build's console/shells/).
  it.each([
    ["/console/models", "/console/shells/models"],
    ["/console/assistants/0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d", "/console/"],
    ["/console/sign-in/", "/console/"],
  ])("answers the deep link %s with the shell of %s and the CSP", async (path, shellPath) => {
    const [deep, shell, start] = await Promise.all([get(path), env.ASSETS.fetch(`http://localhost${shellPath}`), get("/console/")]);
    expect(deep.status).toBe(200);
    expectStrictCsp(deep);
    const html = await deep.text();
    expect(html).toBe(await shell.text());
    // The same entry script and stylesheet as /console/.
    const files = (text: string) => [...text.matchAll(/<(?:script type="module" src|link rel="stylesheet" href)="([^"]+)"/g)].map((m) => m[1]);
    expect(files(html)).toEqual(files(await start.text()));
  });

  // The test pool calls the worker directly (no asset router in front): files are read through
  // the ASSETS binding, which applies the same `_headers`. test/browser/console-*.test.mjs sees them served.
  it("has hashed files cached for good, and the worker answers a missing one with a 404 (not the shell)", async () => {
    const html = await (await get("/console/")).text();
    const script = /src="(\/console\/assets\/app-[A-Z0-9]+\.js)"/.exec(html)![1];
    const res = await env.ASSETS.fetch(`http://localhost${script}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/javascript/);
    expect(res.headers.get("Cache-Control")).toContain("immutable");
    await res.arrayBuffer();
    const missing = await get("/console/assets/app-NOSUCHFILE.js");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("Content-Type")).toMatch(/json/);
  });
});
