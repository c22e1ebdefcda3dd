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
 * With `once` (the components already walked), a component is walked only the first time and its fields are named
 * from it (`Organization.companyName`): many answers return the same record, whose fields are listed once.
 */
function undescribed(
  schemas: Schemas,
  schema: DocSchema,
  at: string,
  seen = new Set<string>(),
  once?: { prefix: string; walked: Set<string> },
): string[] {
  const target = schema.$ref?.split("/").pop();
  if (target) {
    if (seen.has(target) || once?.walked.has(target)) return [];
    once?.walked.add(target);
    const within = once ? `${once.prefix} ${target}` : at;
    return undescribed(schemas, schemas[target], within, new Set([...seen, target]), once);
  }
  const parts = [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])];
  const found = parts.flatMap((part) => undescribed(schemas, part, at, seen, once));
  for (const [name, field] of Object.entries(schema.properties ?? {})) {
    if (!described(schemas, field)) found.push(`${at}.${name}`);
    found.push(...undescribed(schemas, field, `${at}.${name}`, seen, once));
  }
  if (schema.items) found.push(...undescribed(schemas, schema.items, `${at}[]`, seen, once));
  const values = schema.additionalProperties as DocSchema | boolean | undefined;
  if (values && typeof values === "object") found.push(...undescribed(schemas, values, `${at}{}`, seen, once));
  return found;
}

/** Each operation of the document once, as "METHOD /path": the same routes are served under /api/v1 and /api. */
function* operations(doc: Awaited<ReturnType<typeof documentOf>>) {
  for (const [path, methods] of Object.entries(doc.paths)) {
    const route = path.replace(/^\/api(\/v1)?/, "");
    for (const [method, operation] of Object.entries(methods))
      yield { name: `${method.toUpperCase()} ${route}`, operation };
  }
}

describe("the OpenAPI document", () => {
  it("describes every field of every request: its parameters and its JSON and multipart bodies", async () => {
    const doc = await documentOf(await call("GET", "/api/v1/openapi.json"));
    const schemas = doc.components.schemas;
    const missing = new Set<string>();
    for (const { name, operation } of operations(doc)) {
      for (const parameter of operation.parameters ?? []) {
        const at = `${name} ${parameter.in}.${parameter.name}`;
        if (!parameter.description && !described(schemas, parameter.schema)) missing.add(at);
        for (const field of undescribed(schemas, parameter.schema, at)) missing.add(field);
      }
      for (const [mediaType, { schema }] of Object.entries(operation.requestBody?.content ?? {}))
        for (const field of undescribed(schemas, schema, `${name} body (${mediaType})`)) missing.add(field);
    }
    expect([...missing].sort()).toEqual([]);
  });

  it("describes every field of every answer: success bodies, streamed events and the error bodies", async () => {
    const doc = await documentOf(await call("GET", "/api/v1/openapi.json"));
    const schemas = doc.components.schemas;
    // A component is listed under the first answer that returns it, as "<operation> <status> <Component>.<field>";
    // a field of an answer's own body as "<operation> <status> body.<field>". Error answers share the `Error` body
    // (the AI gateway's `GatewayError`), so it too is listed once; so is an answer's own field, under /api and /api/v1.
    const walked = new Set<string>();
    const missing = new Set<string>();
    for (const { name, operation } of operations(doc))
      for (const [status, answer] of Object.entries(operation.responses))
        for (const [mediaType, { schema }] of Object.entries(answer.content ?? {})) {
          const prefix = `${name} ${status}${mediaType === "application/json" ? "" : ` (${mediaType})`}`;
          const once = { prefix, walked };
          for (const field of undescribed(schemas, schema, `${prefix} body`, new Set(), once)) missing.add(field);
        }
    expect([...missing].sort()).toEqual([]);
  });
});
