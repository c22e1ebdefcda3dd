import type { OpenApiDocument } from "../api";
import { type SchemaKit, toJson, withValue, type Path, type Schema } from "./schema";

/** One operation of the served OpenAPI document under one prefix. */
export interface Operation {
  method: string;
  prefix: string;
  /** The path after the prefix, as documented: `/chatbots/{id}/`. */
  template: string;
  /** `security: []`: answers without a key. */
  public: boolean;
  pathParams: string[];
  query: { name: string; required: boolean; schema: Schema }[];
  body?: { required: boolean; json?: Schema; multipart?: Schema; other: string[] };
  /** The documented answers by status (`"200"`, `"404"`): their media types and schemas. */
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}

export const nameOf = (op: Pick<Operation, "method" | "prefix" | "template">) =>
  `${op.method} ${op.prefix}${op.template}`;

/** Every operation of the document, under the prefix of its path (`/api/v1` or `/api`). */
export function operationsOf(doc: OpenApiDocument): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    const prefix = path.startsWith("/api/v1/") ? "/api/v1" : "/api";
    for (const [method, op] of Object.entries(item)) {
      if (!["get", "post", "put", "patch", "delete"].includes(method)) continue;
      const params = op.parameters ?? [];
      const content = op.requestBody?.content ?? {};
      const types = Object.keys(content);
      ops.push({
        method: method.toUpperCase(),
        prefix,
        template: path.slice(prefix.length),
        public: Array.isArray(op.security) && op.security.length === 0,
        pathParams: params.filter((p) => p.in === "path").map((p) => p.name),
        query: params
          .filter((p) => p.in === "query")
          .map((p) => ({ name: p.name, required: !!p.required, schema: p.schema })),
        body: op.requestBody
          ? {
              required: !!op.requestBody.required,
              json: content["application/json"]?.schema,
              multipart: content["multipart/form-data"]?.schema,
              other: types.filter((t) => t !== "application/json" && t !== "multipart/form-data"),
            }
          : undefined,
        responses: op.responses,
      });
    }
  }
  return ops;
}

/**
 * A request of the sweep; `auth: false` leaves the key out. A `lenient` probe is odd input the
 * schema allows (a free-form text filter): it may be answered 2xx, never 5xx.
 */
export interface Probe {
  label: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Uint8Array | FormData;
  auth?: boolean;
  lenient?: boolean;
}

/** Odd values for free-form text filters (comma-separated ids, cursors, search words): raw query text. */
const ODD_QUERY_TEXT: [string, string][] = [
  ["not ids", "not-a-uuid,,%2C,x"],
  ["invalid UTF-8", "%FF%FE%C3%28"],
  ["3000 characters", "x".repeat(3000)],
  ["SQL and LIKE metacharacters", "%25_%27%22%3B--%5C"],
];

const JSON_TYPE = { "Content-Type": "application/json" };
const utf8 = (s: string) => new TextEncoder().encode(s);
/** ~5,000 levels: far past the 64 the contract allows, deep enough to overflow a naive recursion. */
const DEPTH_BOMB = "[".repeat(5000) + "]".repeat(5000);
const JUST_TOO_DEEP = "[".repeat(65) + "]".repeat(65);
const OVER_LIMIT = 1024 * 1024 + 16;

export function fillPath(template: string, values: Record<string, string>) {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => values[name]);
}

export function queryString(values: Record<string, string>) {
  const parts = Object.entries(values).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
  return parts.length ? `?${parts.join("&")}` : "";
}

/** Whether a body is expected at all: without one, is an empty request a malformed one? */
function needsContent(kit: SchemaKit, schema: Schema, method: string) {
  const s = kit.resolve(schema);
  return (s.required?.length ?? 0) > 0 || (s.type === "array" && (s.minItems ?? 0) > 0) || method === "POST";
}

type Mutation = { label: string; path: Path; value: unknown; lenient?: boolean };

/** Size of the value put in free-form strings: large, still well under the 1 MiB body limit. */
const LARGE_TEXT = 200_000;

/** Mutations of a JSON body below `path` (top level and one level into objects and arrays). */
function fieldMutations(kit: SchemaKit, schema: Schema, path: Path, depth: number): Mutation[] {
  const out: Mutation[] = [];
  const s = kit.resolve(schema);
  const object = kit.objectOf(s);
  if (!object) {
    // A body that is an array: its size, then its first item.
    if (path.length === 0 && kit.types(s).includes("array")) {
      for (const w of kit.outOfBounds(s)) out.push({ label: `body: ${w.label}`, path: [], value: w.value });
      out.push(...itemMutations(kit, s, [], depth));
    }
    return out;
  }
  for (const key of (object.required ?? []) as string[])
    out.push({ label: `missing required ${[...path, key].join(".")}`, path: [...path, key], value: undefined });
  for (const [key, prop] of Object.entries<Schema>(object.properties ?? {})) {
    const at = [...path, key];
    const name = at.join(".");
    for (const w of kit.wrongValues(prop)) out.push({ label: `${name}: ${w.label}`, path: at, value: w.value });
    for (const w of kit.outOfBounds(prop)) out.push({ label: `${name}: ${w.label}`, path: at, value: w.value });
    if (kit.unbounded(prop))
      out.push({
        label: `${name}: ${LARGE_TEXT} characters (no limit documented)`,
        path: at,
        value: "x".repeat(LARGE_TEXT),
        lenient: true,
      });
    if (depth >= 1) continue;
    const p = kit.resolve(prop);
    if (kit.objectOf(p)) out.push(...fieldMutations(kit, p, at, depth + 1));
    else out.push(...itemMutations(kit, p, at, depth));
  }
  return out;
}

/** The first item of an array field: wrong when scalar, mutated field by field when an object. */
function itemMutations(kit: SchemaKit, schema: Schema, at: Path, depth: number): Mutation[] {
  if (!kit.types(schema).includes("array") || !schema.items) return [];
  const items = kit.resolve(schema.items);
  if (kit.objectOf(items)) return fieldMutations(kit, items, [...at, 0], depth + 1);
  const name = [...at, 0].join(".") || "body.0";
  const out: Mutation[] = kit
    .wrongValues(items)
    .map((w) => ({ label: `${name}: ${w.label}`, path: [...at, 0], value: w.value }));
  if (kit.unbounded(items))
    out.push({
      label: `${name}: ${LARGE_TEXT} characters (no limit documented)`,
      path: [...at, 0],
      value: "x".repeat(LARGE_TEXT),
      lenient: true,
    });
  return out;
}

/**
 * The malformed bodies of an operation: wrong media types, empty and non-object bodies, broken
 * JSON, a depth bomb, invalid UTF-8, an oversize body, duplicate keys, and, from the schema, each
 * required field missing and each field of a wrong type or out of bounds. Each must be refused.
 */
export function bodyProbes(kit: SchemaKit, op: Operation, url: string, base: unknown): Probe[] {
  const probes: Probe[] = [];
  const add = (label: string, body: Probe["body"], headers: Record<string, string> = JSON_TYPE, lenient = false) =>
    probes.push({ label, method: op.method, url, headers, body, ...(lenient ? { lenient } : {}) });
  const json = op.body?.json;
  const multipart = op.body?.multipart;
  const valid = toJson(base ?? {});
  add("valid JSON sent as text/plain", valid, { "Content-Type": "text/plain" });
  add("valid JSON sent as application/xml", valid, { "Content-Type": "application/xml" });
  add("valid JSON without Content-Type", utf8(valid), {});
  if (!json) add("JSON body where only multipart is accepted", valid);
  if (multipart) {
    add("multipart without a boundary", '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--\r\n', {
      "Content-Type": "multipart/form-data",
    });
    add("multipart body that is not multipart", "this is not multipart", {
      "Content-Type": "multipart/form-data; boundary=sweep",
    });
    probes.push(...multipartProbes(kit, op, url, multipart));
  }
  if (!json) return probes;
  const s = kit.resolve(json);
  const isArray = kit.types(s).includes("array") && !kit.types(s).includes("object");
  // A body the document marks optional may be left out (an anonymous widget session, for one).
  if (op.body?.required && needsContent(kit, s, op.method)) {
    add("empty body", "");
    add("no body and no Content-Type", undefined, {});
  }
  add("JSON null", "null");
  add(isArray ? "JSON object instead of array" : "JSON array instead of object", isArray ? '{"sweep": 1}' : "[]");
  add("JSON string instead of an object or array", '"sweep"');
  add("truncated JSON", valid.slice(0, Math.max(1, valid.length - 1)));
  add("JSON followed by garbage", `${valid} garbage`);
  add("arrays nested 5000 deep", DEPTH_BOMB);
  add("arrays nested 65 deep", JUST_TOO_DEEP);
  if (!isArray) add("object field holding arrays nested 5000 deep", `{"sweepDeep": ${DEPTH_BOMB}}`);
  add(
    `body over 1 MiB`,
    isArray
      ? `[${JSON.stringify("x".repeat(OVER_LIMIT))}]`
      : `{"sweepPadding": ${JSON.stringify("x".repeat(OVER_LIMIT))}}`,
  );
  // Invalid UTF-8: the first string of the valid body gets a lone continuation byte and an 0xFF.
  const at = valid.indexOf('":"') + 3;
  const bytes = utf8(valid);
  const cut = at > 2 ? new TextEncoder().encode(valid.slice(0, at)).length : -1;
  if (cut > 0)
    add(
      "invalid UTF-8 in a string",
      new Uint8Array([...bytes.slice(0, cut), 0x80, 0xff, 0xc3, 0x28, ...bytes.slice(cut)]),
    );
  else add("invalid UTF-8 body", new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]));
  const fill = (path: Path) => {
    let node: Schema = s;
    for (const step of path)
      node =
        typeof step === "number" ? (kit.resolve(node).items ?? {}) : (kit.objectOf(node)?.properties?.[step] ?? {});
    return kit.sample(node);
  };
  const mutations = fieldMutations(kit, s, [], 0);
  for (const m of mutations) add(m.label, toJson(withValue(base, m.path, m.value, fill)), JSON_TYPE, m.lenient);
  // Duplicate keys: the last one wins in JSON.parse, so the wrong value must be seen.
  const isObject = typeof base === "object" && base !== null && !Array.isArray(base);
  const first = isObject && mutations.find((m) => m.path.length === 1 && m.value !== undefined && !m.lenient);
  if (first) {
    const key = String(first.path[0]);
    const rest: Record<string, unknown> = { ...base };
    delete rest[key];
    const head = toJson({ [key]: fill([key]), ...rest }).slice(0, -1);
    add(`duplicate key ${key}, the last of a wrong type`, `${head},${JSON.stringify(key)}:${toJson(first.value)}}`);
  }
  return probes;
}

/** Multipart forms without a required field, with a field out of bounds, or text where a file belongs. */
function multipartProbes(kit: SchemaKit, op: Operation, url: string, schema: Schema): Probe[] {
  const s = kit.resolve(schema);
  const props: Record<string, Schema> = s.properties ?? {};
  const isFile = (p: Schema) => {
    const r = kit.resolve(p);
    return r.format === "binary" || kit.resolve(r.items ?? {}).format === "binary";
  };
  const base: Record<string, string> = {};
  for (const key of (s.required ?? []) as string[])
    if (!isFile(props[key] ?? {})) base[key] = String(kit.sample(props[key] ?? {}));
  const form = (fields: Record<string, string>) => {
    const f = new FormData();
    for (const [k, v] of Object.entries(fields)) f.append(k, v);
    return f;
  };
  const probes: Probe[] = [];
  const seen = new Set<string>();
  const add = (label: string, fields: Record<string, string>) => {
    const key = JSON.stringify(fields);
    if (seen.has(key)) return;
    seen.add(key);
    probes.push({ label: `multipart: ${label}`, method: op.method, url, headers: {}, body: form(fields) });
  };
  if (needsContent(kit, s, op.method)) add("no fields", {});
  for (const key of (s.required ?? []) as string[]) {
    const { [key]: _, ...rest } = base;
    add(`missing required ${key}`, rest);
  }
  for (const [key, prop] of Object.entries(props)) {
    if (isFile(prop)) add(`${key}: text instead of a file`, { ...base, [key]: "not a file" });
    else
      for (const w of kit.outOfBounds(prop))
        if (typeof w.value === "string") add(`${key}: ${w.label}`, { ...base, [key]: w.value });
  }
  return probes;
}

/** Query parameters of a wrong type or out of bounds, one at a time, beside the valid `baseline`. */
export function queryProbes(
  kit: SchemaKit,
  op: Operation,
  path: string,
  baseline: Record<string, string>,
  body: Pick<Probe, "headers" | "body">,
): Probe[] {
  const probes: Probe[] = [];
  for (const q of op.query) {
    const s = kit.resolve(q.schema);
    const candidates = [...kit.wrongValues(s), ...kit.outOfBounds(s)].filter(
      (w) => ["string", "number"].includes(typeof w.value) && w.value !== Infinity,
    );
    // Query values are strings: `12345` is a fine string, so only values the schema refuses as text count.
    for (const w of candidates) {
      const text = String(w.value);
      const asQuery = s.type === "integer" || s.type === "number" ? Number(text) : text;
      if (kit.valid(s, asQuery)) continue;
      probes.push({
        label: `query ${q.name}=${text.length > 40 ? `<${text.length} chars>` : text}`,
        method: op.method,
        url: `${path}${queryString({ ...baseline, [q.name]: text })}`,
        ...body,
      });
    }
    // Text the schema allows, sent to reads only (a lenient answer must not write).
    if (op.method === "GET" && s.type === "string" && !s.enum && !s.format && !s.pattern && s.maxLength === undefined) {
      const { [q.name]: _, ...others } = baseline;
      const rest = queryString(others);
      for (const [label, raw] of ODD_QUERY_TEXT) {
        probes.push({
          label: `query ${q.name}: ${label}`,
          method: op.method,
          url: `${path}${rest ? `${rest}&` : "?"}${encodeURIComponent(q.name)}=${raw}`,
          lenient: true,
          ...body,
        });
      }
    }
    if (q.required) {
      const { [q.name]: _, ...rest } = baseline;
      probes.push({ label: `query ${q.name} missing`, method: op.method, url: `${path}${queryString(rest)}`, ...body });
    }
  }
  return probes;
}

/** Path parameters that are not ids: not a UUID, 3,000 characters, invalid UTF-8. */
export function pathProbes(
  op: Operation,
  values: Record<string, string>,
  query: string,
  body: Pick<Probe, "headers" | "body">,
): Probe[] {
  const probes: Probe[] = [];
  for (const name of op.pathParams) {
    for (const [label, value] of [
      ["not a UUID", "not-a-uuid"],
      ["3000 characters", "x".repeat(3000)],
      ["invalid UTF-8", "%FF%FE%C3%28"],
    ]) {
      probes.push({
        label: `path ${name}: ${label}`,
        method: op.method,
        url: `${op.prefix}${fillPath(op.template, { ...values, [name]: value })}${query}`,
        ...body,
      });
    }
  }
  return probes;
}
