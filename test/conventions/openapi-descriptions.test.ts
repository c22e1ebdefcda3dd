import { describe, expect, it } from "vitest";
import { call } from "../harness";
import { type DocSchema, documentOf } from "../support/api";

type Schemas = Record<string, DocSchema>;
const named = (schemas: Schemas, schema: DocSchema | undefined) =>
  schema?.$ref ? schemas[schema.$ref.split("/").pop()!] : undefined;

/**
 * Whether a field says what it is: a `description` on it, on the schema its `$ref` names, or on a part of its `allOf`
 * (zod-openapi writes a described reference as `allOf [$ref, {description}]`).
 */
const described = (schemas: Schemas, field: DocSchema) =>
  [field, ...(field.allOf ?? [])].some((s) => s.description || named(schemas, s)?.description);

/**
 * Every property of `schema`, at any depth (nested objects, array items, map values, the branches of
 * anyOf/oneOf/allOf, the components `$ref` names), that says nothing of itself: what a developer reading the
 * reference has only a name and a type for. `at` names the field (`body.businessHours.weekly.mon`, `items[]`).
 */
function undescribed(schemas: Schemas, schema: DocSchema, at: string, seen = new Set<string>()): string[] {
  const target = schema.$ref?.split("/").pop();
  if (target) return seen.has(target) ? [] : undescribed(schemas, schemas[target], at, new Set([...seen, target]));
  const parts = [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])];
  const found = parts.flatMap((part) => undescribed(schemas, part, at, seen));
  for (const [name, field] of Object.entries(schema.properties ?? {})) {
    if (!described(schemas, field)) found.push(`${at}.${name}`);
    found.push(...undescribed(schemas, field, `${at}.${name}`, seen));
  }
  if (schema.items) found.push(...undescribed(schemas, schema.items, `${at}[]`, seen));
  const values = schema.additionalProperties as DocSchema | boolean | undefined;
  if (values && typeof values === "object") found.push(...undescribed(schemas, values, `${at}{}`, seen));
  return found;
}

describe("the OpenAPI document", () => {
  it("describes every field of every request: its parameters and its JSON and multipart bodies", async () => {
    const doc = await documentOf(await call("GET", "/api/v1/openapi.json"));
    const schemas = doc.components.schemas;
    const missing = new Set<string>();
    for (const [path, methods] of Object.entries(doc.paths)) {
      // The same routes are served under /api/v1 and /api: each field is listed once.
      const route = path.replace(/^\/api(\/v1)?/, "");
      for (const [method, operation] of Object.entries(methods)) {
        const name = `${method.toUpperCase()} ${route}`;
        for (const parameter of operation.parameters ?? []) {
          const at = `${name} ${parameter.in}.${parameter.name}`;
          if (!parameter.description && !described(schemas, parameter.schema)) missing.add(at);
          for (const field of undescribed(schemas, parameter.schema, at)) missing.add(field);
        }
        for (const [mediaType, { schema }] of Object.entries(operation.requestBody?.content ?? {}))
          for (const field of undescribed(schemas, schema, `${name} body (${mediaType})`)) missing.add(field);
      }
    }
    expect([...missing].sort()).toEqual([]);
  });
});
