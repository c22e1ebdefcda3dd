import { dereference } from "@cfworker/json-schema";
import { isObject } from "./json";

/** The first line of what the validator threw at a schema's fault (it lists every schema it knows after it). */
export const schemaFaultText = (err: unknown) =>
  String((err as Error)?.message ?? err)
    .split(/\n| {2}Absolute URI/)[0]
    .slice(0, 300);

/**
 * Why the arguments validator (@cfworker/json-schema) cannot use `schema`, or null. The validator throws at a `$ref`
 * it cannot resolve or a `pattern` that is no regular expression only when arguments reach that part of the schema,
 * so the whole schema is looked over here, as the validator reads it: every `$ref` among the subschemas the schema
 * itself holds (no remote ones), every `pattern` and `patternProperties` key compiled as it compiles them. It costs
 * one walk of the schema.
 */
export function schemaProblem(schema: unknown): string | null {
  let lookup: Record<string, unknown>;
  try {
    // dereference marks the objects it reads; a copy keeps the caller's as they were.
    lookup = dereference(structuredClone(schema) as never) as Record<string, unknown>;
  } catch (err) {
    return schemaFaultText(err);
  }
  for (const sub of Object.values(lookup)) {
    if (!isObject(sub)) continue;
    if (sub.$ref !== undefined) {
      const uri = (sub as { __absolute_ref__?: string }).__absolute_ref__ || String(sub.$ref);
      if (lookup[uri] === undefined)
        return `"$ref": "${String(sub.$ref).slice(0, 200)}" refers to nothing in the schema.`;
    }
    const patterns = [...(sub.pattern === undefined ? [] : [sub.pattern])];
    if (isObject(sub.patternProperties)) patterns.push(...Object.keys(sub.patternProperties));
    for (const pattern of patterns) {
      try {
        new RegExp(pattern as string, "u");
      } catch (err) {
        return `"pattern": ${schemaFaultText(err)}`;
      }
    }
  }
  return null;
}
