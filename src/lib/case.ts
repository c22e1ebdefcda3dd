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
  "quickReplyConfig",
  "answerMediaUrls",
  "preChatFieldIndex",
  "contentPayload",
  "canvas",
  "mcpCredentials",
  "apiCredentials",
  "contactConnectors",
  // JSON Schemas sent to models (tool parameters, response_format.json_schema.schema).
  "parameters",
  "schema",
]);

export const snakeToCamel = (key: string) => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

export function camelizeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelizeKeys);
  if (value === null || typeof value !== "object") return value;
  const input = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  // camelCase keys first, so a snake_case twin never overrides them.
  for (const [key, v] of Object.entries(input)) {
    if (!key.includes("_")) out[key] = OPAQUE_FIELDS.has(key) ? v : camelizeKeys(v);
  }
  for (const [key, v] of Object.entries(input)) {
    if (!key.includes("_")) continue;
    const camel = snakeToCamel(key);
    if (!(camel in out)) out[camel] = OPAQUE_FIELDS.has(camel) ? v : camelizeKeys(v);
  }
  return out;
}
