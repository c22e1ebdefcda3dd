import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { staticFiles } from "../../src/vendored";

// What the build wrote (scripts/build-assets.mjs): URL path -> headers and body.
const consoleFiles = await staticFiles("console");

const get = (path: string, init?: RequestInit) => SELF.fetch(`http://localhost${path}`, init);

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

  // /console/ names the start page's chunk; a page's address gets the copy naming that page's (the build's
  // console/shells/).
  it.each([
    ["/console/models", "/console/shells/models.html"],
    ["/console/assistants/0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d", "/console/shells/assistants.html"],
    ["/console/sign-in/", "/console/index.html"],
    ["/console/shells/models.html", "/console/index.html"],
  ])("answers the deep link %s with the shell %s and the CSP", async (path, shellPath) => {
    const [deep, start] = await Promise.all([get(path), get("/console/")]);
    expect(deep.status).toBe(200);
    expectStrictCsp(deep);
    const html = await deep.text();
    expect(html).toBe(consoleFiles[shellPath].body);
    // The same entry script and stylesheet as /console/.
    const files = (text: string) =>
      [...text.matchAll(/<(?:script type="module" src|link rel="stylesheet" href)="([^"]+)"/g)].map((m) => m[1]);
    expect(files(html)).toEqual(files(await start.text()));
  });

  it("has hashed files cached for good, and answers a missing one with a 404 (not the shell)", async () => {
    const html = await (await get("/console/")).text();
    const script = /src="(\/console\/assets\/app-[A-Z0-9]+\.js)"/.exec(html)![1];
    const res = await get(script);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/javascript/);
    expect(res.headers.get("Cache-Control")).toContain("immutable");
    expectStrictCsp(res);
    expect(await res.text()).toBe(consoleFiles[script].body);
    const missing = await get("/console/assets/app-NOSUCHFILE.js");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("Content-Type")).toMatch(/json/);
  });

  it("has the shells asked again at each load, answered 304 while unchanged", async () => {
    const first = await get("/console/models");
    expect(first.headers.get("Cache-Control")).toBe("no-cache");
    const etag = first.headers.get("ETag")!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    await first.arrayBuffer();
    const again = await get("/console/models", { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect(again.headers.get("ETag")).toBe(etag);
    // Another page's shell is another document.
    const other = await get("/console/webhooks", { headers: { "If-None-Match": etag } });
    expect(other.status).toBe(200);
    expect(await other.text()).toBe(consoleFiles["/console/shells/webhooks.html"].body);
  });
});

describe("the widget's script at /widget.js", () => {
  it("is served to any site, cached for minutes, and revalidated by its ETag", async () => {
    const res = await get("/widget.js");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/javascript/);
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=300");
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    const body = await res.text();
    expect(body).toContain("data-web-chat-id");
    const etag = res.headers.get("ETag")!;
    const again = await get("/widget.js", { headers: { "If-None-Match": `"stale", ${etag}` } });
    expect(again.status).toBe(304);
    await again.arrayBuffer();
    const stale = await get("/widget.js", { headers: { "If-None-Match": '"stale"' } });
    expect(stale.status).toBe(200);
    expect(await stale.text()).toBe(body);
  });

  it("answers HEAD with the headers alone, and other methods with 405", async () => {
    const head = await get("/widget.js", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("Content-Type")).toMatch(/javascript/);
    expect(await head.text()).toBe("");
    const post = await get("/widget.js", { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("Allow")).toContain("GET");
    await post.arrayBuffer();
  });
});

describe("the API reference at /api/docs/", () => {
  it(
    "is a page of this origin's files only, under a CSP that lets it call nothing else; its script asks for " +
      "this origin's document",
    async () => {
      for (const path of ["/api/docs/", "/api/docs", "/api/v1/docs/"]) {
        const res = await get(path);
        expect(res.status, path).toBe(200);
        expect(res.headers.get("Content-Type")).toMatch(/text\/html/);
        const csp = res.headers.get("Content-Security-Policy") ?? "";
        expect(csp).toContain("script-src 'self';");
        expect(csp).toContain("connect-src 'self';");
        expect(csp).not.toContain("unsafe-eval");
        const html = await res.text();
        // Every script and stylesheet is one of ours, and no script is inline.
        expect(html).not.toMatch(/https?:\/\//);
        const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
        expect(scripts.map(([, attributes]) => /src="([^"]+)"/.exec(attributes)?.[1])).toEqual([
          expect.stringMatching(/^\/api-docs\/swagger-ui-bundle-[\d.]+\.js$/),
          "/api-docs/start.js",
        ]);
        for (const [, , body] of scripts) expect(body.trim()).toBe("");
      }
      const html = await (await get("/api/docs/")).text();
      const files = [...html.matchAll(/(?:src|href)="(\/api-docs\/[^"]+)"/g)].map((m) => m[1]);
      expect(files).toHaveLength(4); // styles, icon, Swagger UI, start script
      for (const file of files) {
        const res = await get(file);
        expect(res.status, file).toBe(200);
        expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
        expect(res.headers.get("Cache-Control"), file).toBe(
          /\d\.(js|css)$/.test(file) ? "public, max-age=31536000, immutable" : "no-cache",
        );
        if (file.endsWith(".js")) expect(res.headers.get("Content-Type")).toMatch(/javascript/);
        if (file.endsWith(".css")) expect(res.headers.get("Content-Type")).toMatch(/text\/css/);
        if (file === "/api-docs/start.js") expect(await res.text()).toContain('fetch("/api/v1/openapi.json")');
        else await res.arrayBuffer();
      }
      expect((await get("/api-docs/swagger-ui-bundle-0.0.0.js")).status).toBe(404);
    },
  );
});
