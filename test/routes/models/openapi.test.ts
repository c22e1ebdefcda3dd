import { describe, expect, it } from "vitest";
import { documentOf } from "../../support/api";
import { call } from "../../harness";
import { KINDS } from "./fixtures";

describe("model routes in the OpenAPI document", () => {
  it("each kind has its own list and item paths, tagged Models", async () => {
    const doc = await documentOf(await call("GET", "/api/v1/openapi.json"));
    for (const k of KINDS) {
      for (const prefix of ["/api/v1", "/api"]) {
        const list = doc.paths[`${prefix}${k.path}`];
        const item = doc.paths[`${prefix}${k.path}{id}/`];
        expect(Object.keys(list).sort()).toEqual(["get", "post"]);
        expect(Object.keys(item).sort()).toEqual(["delete", "get", "patch"]);
        for (const op of [...Object.values(list), ...Object.values(item)]) expect(op.tags).toEqual(["Models"]);
        expect(list.get.summary).toContain(k.kind === "llm" ? "large language" : k.kind);
      }
    }
  });
});
