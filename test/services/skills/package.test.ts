import { describe, expect, it } from "vitest";
import { mimeTypeOf } from "../../../src/services/skills/package";

describe("mimeTypeOf", () => {
  it("knows its own extensions only: a resource named x.constructor is octet-stream", () => {
    expect(mimeTypeOf("docs/guide.MD")).toBe("text/markdown");
    expect(mimeTypeOf("scripts/run.constructor")).toBe("application/octet-stream");
    expect(mimeTypeOf("data/x.__proto__")).toBe("application/octet-stream");
  });
});
