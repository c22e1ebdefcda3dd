import { headersToStore } from "../../lib/masked-headers";
import { credentialsStay } from "../../lib/redirects";
import type { tools } from "../../db/schema";
import type { ToolRow } from "./access";

/** A tool's header fields, each with the URL field naming where they are sent. */
export const HEADER_FIELDS = [
  ["rawHeaders", "apiUrl"],
  ["rawMcpHeader", "mcpUrl"],
] as const;

/**
 * The header columns of a create, or of a change to `current`: masked values resolved (headersToStore: a mask naming
 * no stored value is a 400), and the stored headers dropped when the change points the tool at another server
 * (credentialsStay) without giving new ones.
 */
export function headerColumns(columns: Partial<typeof tools.$inferInsert>, current?: ToolRow) {
  const out = { ...columns };
  for (const [field, urlField] of HEADER_FIELDS) {
    const stay =
      !current ||
      credentialsStay(current[urlField], columns[urlField] === undefined ? current[urlField] : columns[urlField]);
    const sent = columns[field];
    if (sent) out[field] = headersToStore(field, sent, current?.[field] ?? null, stay);
    else if (sent === undefined && !stay) out[field] = null;
  }
  return out;
}
