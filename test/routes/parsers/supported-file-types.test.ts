import { describe, expect, it } from "vitest";
import { SUPPORTED_FILE_TYPES } from "../../../src/services/parsing";
import { PREFIXES, call, expectError, seedOwner } from "../../harness";
import { bodyOf, documentOf } from "../../support/api";

describe("GET /parsers/supported-file-types/", () => {
  it.each(PREFIXES)("lists every supported file type under %s", async (prefix) => {
    const owner = await seedOwner();
    const res = await owner.fetch("GET", "/parsers/supported-file-types/", undefined, { prefix });
    expect(res.status, await res.clone().text()).toBe(200);
    const { results } = await bodyOf<"GET /parsers/supported-file-types/">(res);
    expect(results.map((r) => r.fileType)).toEqual(SUPPORTED_FILE_TYPES.map((t) => t.fileType));
    expect(results.find((r) => r.fileType === "pdf")).toMatchObject({
      extensions: [".pdf"],
      contentTypes: expect.arrayContaining(["application/pdf"]),
      maxSize: 20 * 1024 * 1024,
    });
    expect(results.find((r) => r.fileType === "html")?.extensions).toEqual([".html", ".htm", ".xhtml"]);
    for (const r of results) expect(r.description.length).toBeGreaterThan(0);
  });

  it("401 without a key", async () => {
    await expectError(await call("GET", "/api/v1/parsers/supported-file-types/"), 401, "not_authenticated");
  });

  it("appears in the OpenAPI document under both prefixes", async () => {
    const doc = await documentOf(await call("GET", "/api/v1/openapi.json"));
    for (const prefix of PREFIXES) {
      const op = doc.paths[`${prefix}/parsers/supported-file-types/`]?.get;
      expect(op?.summary).toMatch(/file types/);
      expect(op?.tags).toEqual(["Knowledge bases"]);
    }
  });
});
