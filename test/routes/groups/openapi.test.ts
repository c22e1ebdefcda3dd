import { describe, expect, it } from "vitest";
import { call } from "../../harness";
import { documentOf } from "../../support/api";

describe("groups in the OpenAPI document", () => {
  it("documents every group endpoint under the Roles and permissions tag", async () => {
    const doc = await documentOf(await call("GET", "/api/v1/openapi.json"));
    const base = "/api/v1/organizations/{organizationPk}/groups/";
    const expected: Record<string, string[]> = {
      [base]: ["get", "post"],
      [`${base}{id}/`]: ["delete", "get", "patch", "put"],
      [`${base}{groupPk}/group-members/`]: ["get"],
      [`${base}{groupPk}/group-members/bulk-create/`]: ["post"],
      [`${base}{groupPk}/group-members/{id}/`]: ["delete", "get"],
    };
    for (const [path, methods] of Object.entries(expected)) {
      expect(Object.keys(doc.paths[path] ?? {}).sort(), path).toEqual(methods);
      for (const m of methods) expect(doc.paths[path][m].tags).toEqual(["Roles and permissions"]);
    }
  });
});
