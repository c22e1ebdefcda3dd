import { describe, expect, it } from "vitest";
import { call } from "../../harness";
import { documentOf } from "../../support/api";

describe("Contacts in the OpenAPI document", () => {
  it("lists every contact route under both prefixes, with the recursive label schema as a reference", async () => {
    const res = await call("GET", "/api/v1/openapi.json");
    expect(res.status).toBe(200);
    const doc = await documentOf(res);
    for (const prefix of ["/api/v1", "/api"]) {
      expect(Object.keys(doc.paths[`${prefix}/contacts/`]).sort()).toEqual(["get", "post"]);
      expect(Object.keys(doc.paths[`${prefix}/contacts/{id}/`]).sort()).toEqual(["delete", "get", "patch", "put"]);
      expect(doc.paths[`${prefix}/contacts/`].get.tags).toEqual(["Contacts"]);
    }
    expect(doc.components.schemas).toHaveProperty("Contact");
    expect(doc.components.schemas).toHaveProperty("QueryMetadata");
    expect(JSON.stringify(doc.components.schemas.LabelRelation)).toContain("#/components/schemas/LabelRelation");
    const record = doc.components.schemas.Contact.properties;
    expect(record).toHaveProperty("hasMcpCredentials");
    expect(record).not.toHaveProperty("mcpCredentials");
    expect(record).not.toHaveProperty("apiCredentials");
    expect(doc.components.schemas.ContactCreate.properties).toHaveProperty("mcpCredentials");
  });
});
