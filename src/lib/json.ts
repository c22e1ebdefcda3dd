/**
 * A JSON object as it is stored and sent. Its values are typed `{} | null` (anything but
 * undefined), not `unknown`: a record holding `unknown` cannot cross the conversation object's RPC
 * boundary as typed, and a recursive JSON type is too deep for Hono's response types.
 */
export type JsonObject = { [key: string]: {} | null };

/** A JSON column's value (drizzle types them `Record<string, unknown>`): what was stored as JSON is JSON. */
export const stored = <T extends Record<string, unknown> | null | undefined>(value: T) =>
  value as T extends null | undefined ? T : JsonObject;
