import { type Schema as ValidatorSchema, Validator } from "@cfworker/json-schema";

/**
 * A JSON Schema node of the served OpenAPI document (3.1: plain JSON Schema 2020-12 plus `example`): the keywords the
 * sweep reads, typed; any other keyword is carried along unread. `schemas` is there for the `components` object.
 */
export interface Schema {
  $ref?: string;
  type?: string | string[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  example?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  schemas?: Record<string, Schema>;
  [keyword: string]: unknown;
}
export type Path = (string | number)[];

/** One failing keyword of a value: where in the value, which keyword, the validator's words. */
export interface SchemaProblem {
  path: string;
  keyword: string;
  message: string;
}

/** Keywords the validator reports on the way to the one that failed: they say only "a subschema had errors". */
const WRAPPERS = new Set(["$ref", "$dynamicRef", "properties", "items", "prefixItems", "allOf", "false"]);

const NO_SUCH_ID = "01900000-0000-7000-8000-000000000000";
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);

/**
 * Drops `example` (not a JSON Schema keyword; its values confuse the validator's `$id` scan). `node` is any value of
 * the document, typed as a schema's keywords are.
 */
function stripExamples<T>(node: T, inMap = false): T {
  if (Array.isArray(node)) return node.map((n) => stripExamples(n)) as T;
  if (!node || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (!inMap && (k === "example" || k === "examples")) continue;
    out[k] = k === "enum" || k === "const" || k === "default" ? v : stripExamples(v, !inMap && SCHEMA_MAPS.has(k));
  }
  return out as T;
}

const clone = <T>(v: T): T => (v === undefined ? v : JSON.parse(JSON.stringify(v)));
const jsonType = (v: unknown) =>
  v === null ? "null" : Array.isArray(v) ? "array" : Number.isInteger(v) ? "integer" : typeof v;

/**
 * Reads the document's schemas: resolves `$ref`s, validates values, builds a valid sample of a schema
 * (its examples, else the simplest value of its type) and the malformed variants the sweep sends.
 */
export class SchemaKit {
  /** Example-free copy of the document's `components`, the validators' `$ref` targets. */
  private readonly components: Schema;
  /** The document's component schemas as served (with examples, for samples). */
  private readonly schemas: Record<string, Schema>;
  private readonly validators = new Map<Schema, Validator>();
  /** Validators that go on after the first error, for `problems`. */
  private readonly reporters = new Map<Schema, Validator>();

  constructor(components: Schema) {
    this.components = stripExamples(components);
    this.schemas = components.schemas ?? {};
  }

  resolve(schema: Schema | undefined): Schema {
    let s = schema ?? {};
    for (let i = 0; s.$ref && i < 20; i++) s = this.schemas[String(s.$ref).replace("#/components/schemas/", "")] ?? {};
    return s;
  }

  private validator(schema: Schema, all: boolean): Validator {
    const cache = all ? this.reporters : this.validators;
    let v = cache.get(schema);
    if (!v) {
      const document = { ...stripExamples(schema), components: this.components } as ValidatorSchema;
      v = new Validator(document, "2020-12", !all);
      cache.set(schema, v);
    }
    return v;
  }

  valid(schema: Schema, value: unknown): boolean {
    return this.validator(schema, false).validate(value).valid;
  }

  /**
   * Why `value` is not valid (empty when it is): each failing keyword at its instance path (`/results/0/name`).
   * The validator also reports every applicator on the way down (`$ref`, `properties`, `items`: "a subschema had
   * errors"); those are left out, and the branches of a failing `anyOf`/`oneOf` are folded into its one line.
   */
  problems(schema: Schema, value: unknown): SchemaProblem[] {
    const units = this.validator(schema, true).validate(value).errors;
    const unions = units.filter((u) => u.keyword === "anyOf" || u.keyword === "oneOf");
    const out: SchemaProblem[] = [];
    for (const u of units) {
      if (WRAPPERS.has(u.keyword)) continue;
      if (unions.some((x) => x !== u && u.keywordLocation.startsWith(`${x.keywordLocation}/`))) continue;
      const branches = unions.includes(u)
        ? units.filter((b) => b.keywordLocation.startsWith(`${u.keywordLocation}/`) && !WRAPPERS.has(b.keyword))
        : [];
      const message = branches.length
        ? `${u.error} (${[...new Set(branches.map((b) => `${b.instanceLocation.slice(1) || "/"} ${b.error}`))]
            .slice(0, 4)
            .join("; ")})`
        : u.error;
      out.push({ path: u.instanceLocation.slice(1) || "/", keyword: u.keyword, message });
    }
    return out;
  }

  /**
   * Fields of `value` its schema does not name, where the schema leaves them open (an object with `properties` and
   * no `additionalProperties`): valid, so `problems` is silent, but a client generated from the document never
   * sees them. Walks nested objects and arrays; through `anyOf`/`oneOf` it takes the valid branch that names the
   * most of the value.
   */
  undocumented(schema: Schema, value: unknown, at = ""): string[] {
    const s = this.merged(schema);
    const branches: Schema[] = s.anyOf ?? s.oneOf ?? [];
    if (branches.length) {
      const fits = branches.filter((b) => this.valid(b, value)).map((b) => this.undocumented(b, value, at));
      return fits.sort((x, y) => x.length - y.length)[0] ?? [];
    }
    if (Array.isArray(value)) {
      if (!s.items) return [];
      const seen = new Set<string>();
      // Each path once, with `*` for the item's index: a list of 100 records with one extra field is one finding.
      value.forEach((item) => {
        for (const p of this.undocumented(s.items!, item, `${at}/*`)) seen.add(p);
      });
      return [...seen];
    }
    if (!value || typeof value !== "object") return [];
    const out: string[] = [];
    for (const [key, v] of Object.entries(value)) {
      const property = s.properties?.[key];
      if (property) out.push(...this.undocumented(property, v, `${at}/${key}`));
      else if (s.additionalProperties && typeof s.additionalProperties === "object")
        out.push(...this.undocumented(s.additionalProperties as Schema, v, `${at}/*`));
      else if (s.properties && s.additionalProperties === undefined && !s.patternProperties) out.push(`${at}/${key}`);
    }
    return out;
  }

  /**
   * `schema` resolved, with the branches of an `allOf` folded into it: their `properties` together (an extended
   * record is `allOf [$ref Base, {properties of its own}]`; a described reference `allOf [$ref, {description}]`).
   */
  private merged(schema: Schema): Schema {
    const s = this.resolve(schema);
    if (!s.allOf) return s;
    const parts = [...s.allOf.map((b) => this.merged(b)), { ...s, allOf: undefined }];
    const properties = Object.assign({}, ...parts.map((p) => p.properties ?? {}));
    const out: Schema = Object.assign({}, ...parts);
    out.properties = Object.keys(properties).length ? properties : undefined;
    return out;
  }

  /** Types a schema admits (`type` may be a list; anyOf/oneOf branches add theirs). */
  types(schema: Schema): string[] {
    const s = this.resolve(schema);
    if (s.type) return Array.isArray(s.type) ? s.type : [s.type];
    const branches: Schema[] = s.anyOf ?? s.oneOf ?? s.allOf ?? [];
    return [...new Set(branches.flatMap((b) => this.types(b)))];
  }

  /** The object schema behind a property (looking through nullable anyOf/allOf), if it has properties. */
  objectOf(schema: Schema): Schema | undefined {
    const s = this.resolve(schema);
    if (s.properties) return s;
    const branches: Schema[] = s.allOf ?? s.anyOf ?? [];
    for (const b of branches) {
      const r = this.resolve(b);
      if (r.properties) return r;
    }
    return undefined;
  }

  /** A valid value: the schema's example when it is valid, else built from required fields only. */
  sample(schema: Schema, depth = 0): unknown {
    const s = this.resolve(schema);
    if ("example" in s && s.example !== null && this.valid(s, s.example)) return clone(s.example);
    if (s.default !== undefined && this.valid(s, s.default)) return clone(s.default);
    for (const key of ["anyOf", "oneOf"] as const) {
      if (!s[key]) continue;
      const branches: Schema[] = s[key];
      for (const branch of branches) {
        const v = this.sample(branch, depth + 1);
        if (this.valid(s, v)) return v;
      }
    }
    if (s.allOf) return this.sample(s.allOf[0], depth + 1);
    if (s.enum) return s.enum.find((e: unknown) => e !== null) ?? s.enum[0];
    const type = this.types(s).find((t) => t !== "null") ?? "null";
    switch (type) {
      case "object": {
        const out: Record<string, unknown> = {};
        if (depth < 8)
          for (const key of (s.required ?? []) as string[])
            out[key] = this.sample(s.properties?.[key] ?? {}, depth + 1);
        return out;
      }
      case "array":
        return depth < 8 && s.minItems
          ? Array.from({ length: s.minItems }, () => this.sample(s.items ?? {}, depth + 1))
          : [];
      case "string":
        if (s.format === "uuid") return NO_SUCH_ID;
        if (s.format === "email") return "sweep@example.com";
        if (s.format === "uri") return "https://example.com/sweep";
        if (s.format === "date") return "2026-01-01";
        if (s.format === "date-time") return "2026-01-01T00:00:00Z";
        return "sweep".padEnd(s.minLength ?? 0, "x");
      case "integer":
      case "number":
        return s.minimum ?? (s.maximum !== undefined && s.maximum < 1 ? s.maximum : 1);
      case "boolean":
        return false;
      default:
        return null;
    }
  }

  /**
   * Values this schema refuses: one of another JSON type and, for constrained strings and numbers,
   * one of the right type that breaks the constraint (enum, format, pattern, integer).
   */
  wrongValues(schema: Schema): { label: string; value: unknown }[] {
    const s = this.resolve(schema);
    const sampleType = jsonType(this.sample(s));
    const out: { label: string; value: unknown }[] = [];
    const otherType = [12345, "not-a-valid-value-¡", true, { sweep: 1 }, ["sweep"]].find(
      (v) => jsonType(v) !== sampleType && !this.valid(s, v),
    );
    if (otherType !== undefined)
      out.push({ label: `${jsonType(otherType)} instead of ${sampleType}`, value: otherType });
    const sameType = (sampleType === "string" ? [" not-a-valid-value-¡ "] : sampleType === "integer" ? [1.5] : []).find(
      (v) => !this.valid(s, v),
    );
    if (sameType !== undefined)
      out.push({ label: `invalid ${sampleType} ${JSON.stringify(sameType)}`, value: sameType });
    return out;
  }

  /** Values just past the schema's bounds (length, size, range). */
  outOfBounds(schema: Schema): { label: string; value: unknown }[] {
    const s = this.resolve(schema);
    const out: { label: string; value: unknown }[] = [];
    const add = (label: string, value: unknown) => {
      if (!this.valid(s, value)) out.push({ label, value });
    };
    if (typeof s.maxLength === "number") add(`length ${s.maxLength + 1} > maxLength`, "x".repeat(s.maxLength + 1));
    if (typeof s.minLength === "number" && s.minLength > 0)
      add(`length ${s.minLength - 1} < minLength`, "x".repeat(s.minLength - 1));
    if (typeof s.maximum === "number") add(`${s.maximum + 1} > maximum`, s.maximum + 1);
    if (typeof s.minimum === "number") add(`${s.minimum - 1} < minimum`, s.minimum - 1);
    if (typeof s.maxItems === "number")
      add(
        `${s.maxItems + 1} items > maxItems`,
        Array.from({ length: s.maxItems + 1 }, () => this.sample(s.items ?? {})),
      );
    if (typeof s.minItems === "number" && s.minItems > 0) add(`${s.minItems - 1} items < minItems`, []);
    const types = this.types(s);
    if (types.includes("integer") || types.includes("number")) add("1e999 (infinite)", Infinity);
    return out;
  }

  /** A free-form string (no length, format, pattern or enum): the schema allows any size. */
  unbounded(schema: Schema): boolean {
    const s = this.resolve(schema);
    return (
      this.types(s).includes("string") &&
      s.maxLength === undefined &&
      !s.enum &&
      !s.format &&
      !s.pattern &&
      !s.anyOf &&
      !s.oneOf
    );
  }
}

/** A copy of `base` with `value` at `path` (intermediate containers from `fill`); `undefined` deletes. */
export function withValue(base: unknown, path: Path, value: unknown, fill: (at: Path) => unknown): unknown {
  if (!path.length) return clone(value);
  type Container = Record<string | number, unknown>;
  const root = clone(base) as Container;
  let node = root;
  for (let i = 0; i < path.length - 1; i++) {
    if (node[path[i]] === undefined || node[path[i]] === null || typeof node[path[i]] !== "object")
      node[path[i]] = fill(path.slice(0, i + 1));
    node = node[path[i]] as Container;
  }
  const last = path[path.length - 1];
  if (value === undefined) delete node[last];
  else node[last] = value;
  return root;
}

/** JSON text where Infinity stands for the literal `1e999` (valid JSON grammar, not a finite number). */
export const toJson = (value: unknown) =>
  JSON.stringify(value, (_k, v) => (v === Infinity ? "__INFINITY__" : v)).replace(/"__INFINITY__"/g, "1e999");
