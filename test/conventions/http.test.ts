import { describe, expect, it } from "vitest";
import { PREFIXES, call, expectError, seedOwner } from "../harness";
import { bodyOf, documentOf } from "../support/api";

describe("HTTP conventions (CONTRACT sections 1, 2, 8)", () => {
  it("unknown paths are a JSON 404 with a request id", async () => {
    const owner = await seedOwner();
    await expectError(await owner.fetch("GET", "/no-such-thing/"), 404, "not_found");
  });

  it("a known path with the wrong method is a 405 with Allow", async () => {
    const owner = await seedOwner();
    const res = await owner.fetch("DELETE", "/users/current/");
    await expectError(res, 405, "method_not_allowed");
    expect(res.headers.get("Allow")).toContain("GET");
  });

  it("echoes a sane X-Request-Id and makes one otherwise", async () => {
    const owner = await seedOwner();
    const mine = await owner.fetch("GET", "/users/current/", undefined, { headers: { "X-Request-Id": "trace-123" } });
    expect(mine.headers.get("X-Request-Id")).toBe("trace-123");
    const bad = await owner.fetch("GET", "/users/current/", undefined, {
      headers: { "X-Request-Id": "no spaces <script>" },
    });
    expect(bad.headers.get("X-Request-Id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("a JSON body over the limit is a 413 and writes nothing", async () => {
    const owner = await seedOwner();
    const res = await owner.fetch("PUT", "/users/current/", { name: "x".repeat(1024 * 1024 + 10), email: owner.email });
    await expectError(res, 413, "payload_too_large");
  });

  it("a page past the end is 404 Invalid page; page size is clamped", async () => {
    const owner = await seedOwner();
    const body = await expectError(await owner.fetch("GET", "/api-keys/?page=5"), 404, "not_found");
    expect(body.detail).toBe("Invalid page.");
    const res = await owner.fetch("GET", "/api-keys/?page_size=1000");
    expect(res.status).toBe(200);
    expect((await bodyOf<"GET /api-keys/">(res)).count).toBe(1);
  });

  it("page links are absolute URLs that keep the query", async () => {
    const owner = await seedOwner();
    for (let i = 0; i < 3; i++) expect((await owner.fetch("POST", "/api-keys/", { name: `k${i}` })).status).toBe(201);
    const first = await bodyOf<"GET /api-keys/">(await owner.fetch("GET", "/api-keys/?pageSize=2"));
    expect(first.count).toBe(4);
    expect(first.results).toHaveLength(2);
    expect(first.previous).toBeNull();
    expect(first.next).toBe("http://localhost/api/v1/api-keys/?pageSize=2&page=2");
    const second = await bodyOf<"GET /api-keys/">(await owner.fetch("GET", "/api-keys/?pageSize=2&page=2"));
    expect(second.results).toHaveLength(2);
    expect(second.next).toBeNull();
    expect(second.previous).toBe("http://localhost/api/v1/api-keys/?pageSize=2");
  });

  it.each(PREFIXES)("the OpenAPI document lists every route under both prefixes (%s)", async (prefix) => {
    const res = await call("GET", `${prefix}/openapi.json`);
    expect(res.status).toBe(200);
    const doc = await documentOf(res);
    const paths = Object.keys(doc.paths);
    const v1 = paths.filter((p) => p.startsWith("/api/v1/"));
    expect(v1.length).toBeGreaterThan(5);
    for (const p of v1) {
      expect(paths, p).toContain(p.replace("/api/v1/", "/api/"));
      for (const [method, op] of Object.entries(doc.paths[p])) {
        expect(op.summary, `${method} ${p} summary`).toBeTruthy();
        expect(op.tags?.length, `${method} ${p} tags`).toBeGreaterThan(0);
      }
    }
  });

  it("serves /api/schema/ and an interactive docs page without a key", async () => {
    expect((await call("GET", "/api/schema/")).status).toBe(200);
    const docs = await call("GET", "/api/docs");
    expect(docs.status).toBe(200);
    // start.js reads /api/v1/openapi.json (test/routes/static-files.test.ts).
    expect(await docs.text()).toContain('<script src="/api-docs/start.js">');
  });
});
