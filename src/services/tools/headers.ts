import { maskSecret } from "../../lib/crypto";
import { credentialsStay } from "../../lib/redirects";
import type { tools } from "../../db/schema";
import type { ToolRow } from "./access";

type HeaderObject = Record<string, unknown>;

/** A tool's header fields, each with the URL field naming where they are sent. */
export const HEADER_FIELDS = [
  ["rawHeaders", "apiUrl"],
  ["rawMcpHeader", "mcpUrl"],
] as const;

/** A header value as records show it: its end at most (maskSecret). */
const masked = (value: unknown) => (typeof value === "string" && value ? maskSecret(value) : value);

/**
 * Headers as a tool's record shows them: the names, each value masked. The values are write-only (an api key, a
 * bearer token), as a connector's authHeaders are, and a global tool is read by every organization.
 */
export const maskedHeaders = (headers: HeaderObject | null): HeaderObject | null =>
  headers && Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, masked(value)]));

/**
 * The headers to store from those a body sends, against the `stored` ones: a value sent back as the record shows it
 * (masked) keeps the stored value, so an edit form that sends every field stores no mask. When the URL they go to has
 * moved (`stay` false), a masked value is dropped instead: stored values do not follow the tool to another server.
 */
export function unmaskedHeaders(sent: HeaderObject, stored: HeaderObject | null, stay: boolean): HeaderObject {
  const out: HeaderObject = {};
  for (const [name, value] of Object.entries(sent)) {
    const kept = stored?.[name];
    const isMask = typeof kept === "string" && kept !== "" && value === masked(kept);
    if (!isMask) out[name] = value;
    else if (stay) out[name] = kept;
  }
  return out;
}

/**
 * The header columns of a change to `current`: masked values resolved (unmaskedHeaders), and the stored headers
 * dropped when the change points the tool at another server (credentialsStay) without giving new ones.
 */
export function headerColumns(columns: Partial<typeof tools.$inferInsert>, current: ToolRow) {
  const out = { ...columns };
  for (const [field, urlField] of HEADER_FIELDS) {
    const stay = credentialsStay(
      current[urlField],
      columns[urlField] === undefined ? current[urlField] : columns[urlField],
    );
    const sent = columns[field];
    if (sent) out[field] = unmaskedHeaders(sent, current[field], stay);
    else if (sent === undefined && !stay) out[field] = null;
  }
  return out;
}
