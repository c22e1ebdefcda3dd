import { z } from "zod";
import { fromBase64Url, toBase64Url } from "../../lib/base64";

/**
 * Where a list tool goes on: MCP's pagination cursor, the opaque `nextCursor` an answer gives and the next call passes
 * back. It names the API's page and the list's filter, so the pages a client walks are pages of one list.
 */
const Position = z.object({
  page: z.number().int().min(1),
  query: z.string().max(200).optional(),
});
export type Position = z.infer<typeof Position>;

/** The cursor of a position: base64url of its JSON. */
export const encodePosition = (position: Position): string => toBase64Url(JSON.stringify(position));

/** The position a cursor names, or null for a string no answer gave. */
export function decodePosition(cursor: string): Position | null {
  try {
    const parsed = Position.safeParse(JSON.parse(new TextDecoder().decode(fromBase64Url(cursor))));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
