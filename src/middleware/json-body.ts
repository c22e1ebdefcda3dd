import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { ApiError } from "../lib/errors";
import { MAX_JSON_DEPTH, camelizeKeys, jsonNestsDeeperThan } from "../lib/case";
import { readBodyText } from "../lib/http";
import { wellFormed } from "../lib/text";

/** Whether a parsed body holds a number JSON cannot represent (an iterative walk: depth is already bounded). */
function hasNonFiniteNumber(value: unknown): boolean {
  const stack = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === "number") {
      if (!Number.isFinite(v)) return true;
    } else if (v !== null && typeof v === "object") stack.push(...Object.values(v));
  }
  return false;
}

/**
 * The body with each lone surrogate in its strings and keys made one U+FFFD (`wellFormed`), as the widget's text is:
 * `"\ud83d"` alone (half an emoji, cut) is valid JSON that names no character, which D1 stored as three U+FFFD.
 * Recursive: depth is already bounded.
 */
function wellFormedValues(value: unknown): unknown {
  if (typeof value === "string") return wellFormed(value);
  if (Array.isArray(value)) return value.map(wellFormedValues);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [wellFormed(k), wellFormedValues(v)]));
}

/**
 * Reads JSON bodies once: enforces the size limit (413) and the depth limit (400, checked on the text
 * before anything parses or walks it), turns malformed JSON into a 400 and
 * accepts snake_case keys. The parsed body is handed to the zod validators through Hono's body cache.
 */
export const jsonBody = () =>
  createMiddleware<AppEnv>(async (c, next) => {
    const method = c.req.method;
    const type = c.req.header("Content-Type") ?? "";
    if (
      (method === "POST" || method === "PUT" || method === "PATCH") &&
      /^application\/([\w.+-]*\+)?json/i.test(type)
    ) {
      const text = await readBodyText(c.req.raw, c.env.JSON_BODY_LIMIT_BYTES, "JSON parse error - the body");
      let parsed: unknown = {};
      if (jsonNestsDeeperThan(text))
        throw new ApiError(400, "invalid", `The JSON body nests deeper than ${MAX_JSON_DEPTH} levels.`);
      if (text.trim()) {
        try {
          parsed = JSON.parse(text);
        } catch (err) {
          throw new ApiError(400, "parse_error", `JSON parse error - ${(err as Error).message}`);
        }
        // JSON.parse reads 1e999 as Infinity, which JSON cannot carry: it would reach validation as null.
        if (hasNonFiniteNumber(parsed))
          throw new ApiError(400, "parse_error", "JSON parse error - a number is out of range.");
        // The body is strict UTF-8: only a \u escape carries half a surrogate pair.
        if (/\\u[dD][89a-fA-F]/.test(text)) parsed = wellFormedValues(parsed);
      }
      c.req.bodyCache.json = Promise.resolve(camelizeKeys(parsed));
    }
    await next();
  });
