import { describe, expect, it } from "vitest";
import { call } from "../../harness";
import { documentOf } from "../../support/api";
import type { Schema } from "../../support/openapi-sweep/schema";

/**
 * Every property of `schema`, at any depth, that says nothing of itself (no `description`, here or on the schema its
 * `$ref` names): what an integrator reading the reference has only a name and a type for.
 */
function undescribed(schemas: Record<string, Schema>, schema: Schema, at: string, seen = new Set<string>()): string[] {
  const named = schema.$ref?.split("/").pop();
  if (named) {
    if (seen.has(named)) return [];
    return undescribed(schemas, schemas[named], at, new Set([...seen, named]));
  }
  const parts = [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])];
  const found = parts.flatMap((part) => undescribed(schemas, part, at, seen));
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const target = property.$ref ? schemas[property.$ref.split("/").pop()!] : undefined;
    const described = [property, target, ...(property.allOf ?? [])].some((s) => s?.description);
    if (!described) found.push(`${at}.${name}`);
    found.push(...undescribed(schemas, property, `${at}.${name}`, seen));
  }
  if (schema.items) found.push(...undescribed(schemas, schema.items, `${at}[]`, seen));
  return [...new Set(found)];
}

describe("the conversation endpoints in the OpenAPI document", () => {
  it("describe every field of the bodies an integrator sends first: completions and messages", async () => {
    const doc = await documentOf(await call("GET", "/api/v1/openapi.json"));
    const schemas = doc.components.schemas as Record<string, Schema>;
    const bodyOf = (path: string) => {
      const operation = doc.paths[`/api/v1${path}`].post as { requestBody: { content: Record<string, unknown> } };
      return (operation.requestBody.content["application/json"] as { schema: Schema }).schema;
    };
    const missing = ["/chatbots/{chatbotId}/completions/", "/messages/", "/messages/outgoing/"].flatMap((path) =>
      undescribed(schemas, bodyOf(path), `POST ${path}`),
    );
    expect(missing).toEqual([]);
  });
});
