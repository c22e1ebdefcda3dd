/**
 * Requests accept camelCase and snake_case for the same field; camelCase wins (CONTRACT section 1).
 * Free-form objects (customer metadata, headers, JSON schemas) keep their keys exactly as sent.
 */
const OPAQUE_FIELDS = new Set([
  "metadata",
  "rawUserDefineMetadata",
  "applicationMetadata",
  "headers",
  "rawHeaders",
  "rawMcpHeader",
  "authHeaders",
  "rawOutputFormat",
  "rawParametersSchema",
  "mcpAllowedTools",
  "includeTables",
  "flexTemplateJson",
  "flexSchema",
  "answerMediaUrls",
  "preChatFieldIndex",
  "contentPayload",
  // A canvas's own fields are ours (`canvas_type` is `canvasType`); its type's object is the client's.
  "canvasType",
  "mcpCredentials",
  "apiCredentials",
  "contactConnectors",
  // What a desktop tool returned (POST /tool-execution-records/{id}/result/): the client's own JSON.
  "output",
  // JSON Schemas sent to models (tool parameters, response_format.json_schema.schema).
  "parameters",
  "schema",
]);

export const snakeToCamel = (key: string) => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** Deepest nesting a JSON body may have (CONTRACT section 8); deeper bodies are refused before any walk. */
export const MAX_JSON_DEPTH = 64;

/** Whether JSON text nests arrays and objects deeper than `limit`: a linear scan, no recursion, no parse. */
export function jsonNestsDeeperThan(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c)
        i++; // a backslash escapes the next character
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x5b || ch === 0x7b) {
      if (++depth > limit) return true;
    } else if (ch === 0x5d || ch === 0x7d) depth--;
  }
  return false;
}

/**
 * snake_case keys of a parsed body renamed to camelCase. Bounded by MAX_JSON_DEPTH (deeper values are
 * kept as they are), and `__proto__` keys are dropped, so a body cannot give the result a prototype.
 */
export function camelizeKeys(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== "object" || depth > MAX_JSON_DEPTH) return value;
  if (Array.isArray(value)) return value.map((v) => camelizeKeys(v, depth + 1));
  const input = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  // camelCase keys first, so a snake_case twin never overrides them.
  for (const [key, v] of Object.entries(input)) {
    if (!key.includes("_")) out[key] = OPAQUE_FIELDS.has(key) ? v : camelizeKeys(v, depth + 1);
  }
  for (const [key, v] of Object.entries(input)) {
    if (!key.includes("_") || key === "__proto__") continue;
    const camel = snakeToCamel(key);
    if (!Object.hasOwn(out, camel)) out[camel] = OPAQUE_FIELDS.has(camel) ? v : camelizeKeys(v, depth + 1);
  }
  return out;
}
