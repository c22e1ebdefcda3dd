import { describe, expect, it } from "vitest";
import { documentOf } from "../../support/api";
import { call } from "../../harness";

describe("assistants in the OpenAPI document", () => {
  it("documents every assistant and group-assistant endpoint under both prefixes", async () => {
    const doc = await documentOf(await call("GET", "/api/v1/openapi.json"));
    const groups = "/organizations/{organizationPk}/groups/{groupPk}/group-chatbots/";
    const expected: [string, string[], string][] = [
      ["/chatbots/", ["get", "post"], "Assistants"],
      ["/chatbots/{id}/", ["delete", "get", "patch", "put"], "Assistants"],
      ["/chatbots/{id}/enable-evaluation/", ["patch"], "Assistants"],
      [groups, ["get"], "Roles and permissions"],
      [`${groups}bulk-create/`, ["post"], "Roles and permissions"],
      [`${groups}{id}/`, ["delete"], "Roles and permissions"],
    ];
    for (const prefix of ["/api/v1", "/api"]) {
      for (const [path, methods, tag] of expected) {
        const item = doc.paths[`${prefix}${path}`] ?? {};
        for (const m of methods) expect(item[m]?.tags, `${m} ${prefix}${path}`).toEqual([tag]);
      }
    }
  });
});
