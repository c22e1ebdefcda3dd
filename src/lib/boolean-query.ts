import { z } from "@hono/zod-openapi";

type BooleanText = "true" | "false";
interface BooleanQueryMeta {
  description: string;
  example: BooleanText;
  /** The value of an absent parameter; without it, absent stays undefined. */
  default?: BooleanText;
}

const lowercase = (value: unknown) => (typeof value === "string" ? value.toLowerCase() : value);

/**
 * A boolean query parameter: `true` or `false` as the document says, in any letter case, since Python's `requests`
 * writes a Python bool as `True` or `False` and real clients send them so. A handler always reads lowercase `"true"`
 * or `"false"`; the document keeps the lowercase enum.
 */
export function booleanQuery(meta: BooleanQueryMeta & { default: BooleanText }): z.ZodType<BooleanText, unknown>;
export function booleanQuery(meta: BooleanQueryMeta): z.ZodType<BooleanText | undefined, unknown>;
export function booleanQuery({ default: fallback, ...meta }: BooleanQueryMeta): z.ZodType<BooleanText | undefined> {
  const text = z.enum(["true", "false"]);
  return z.preprocess(lowercase, fallback ? text.default(fallback) : text.optional()).openapi(meta);
}
