import { z } from "@hono/zod-openapi";

/**
 * A JSON value as it is stored and sent. Its recursion goes through interfaces, which TypeScript
 * resolves lazily: written with inline object and array types, the conversation object's RPC types
 * (Rpc.Stubify in @cloudflare/workers-types) expand it without end ("excessively deep").
 */
export type Json = string | number | boolean | null | JsonArray | JsonObject;

/** A JSON object as it is stored and sent. */
export interface JsonObject {
  [key: string]: Json;
}

export interface JsonArray extends Array<Json> {}

/**
 * `record[key]` when the record itself has that key, else undefined: for a key a client or platform gives. In a plain
 * object, "constructor" or "__proto__" would find Object.prototype's members (a function where a value belongs).
 */
export const ownValue = <T>(record: Record<string, T>, key: string): T | undefined =>
  Object.hasOwn(record, key) ? record[key] : undefined;

/**
 * Any JSON value, in a record's schema: documented as any value (as `z.unknown()`, which it is at
 * run time) but typed `Json`, so a record inferred from its schema can cross the conversation
 * object's RPC boundary as typed (a field typed `unknown` cannot). Records are built from stored
 * JSON, never parsed with this schema.
 */
export const JsonValue = z.unknown() as z.ZodType<Json>;

/** A JSON column's value (drizzle types them `Record<string, unknown>`): what was stored as JSON is JSON. */
export const stored = <T extends Record<string, unknown> | null | undefined>(value: T) =>
  value as T extends null | undefined ? T : JsonObject;

/** Whether a value read from JSON (or anything) is an object with keys: not null, not an array. */
export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
