import { z } from "@hono/zod-openapi";
import { booleanQuery } from "./boolean-query";
import type { Context } from "hono";
import type { ZodType } from "zod";
import { ApiError } from "./errors";
import { fromBase64Url, toBase64Url } from "./base64";
import { isUuid } from "./ids";

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** A page size asked for, clamped to 1..100 as CONTRACT section 1 says (20 when not asked). */
const clampPageSize = (n: number | undefined) => Math.min(Math.max(n ?? DEFAULT_PAGE_SIZE, 1), MAX_PAGE_SIZE);

const pageSize = z.coerce
  .number()
  .int()
  .optional()
  .transform(clampPageSize)
  .openapi({ description: "Items per page, 1..100 (default 20)", example: 20, type: "integer" });

export const PageQuery = z.object({
  page: z.coerce
    .number()
    .int()
    .min(1)
    .default(1)
    .openapi({ description: "Page number, from 1", example: 1, type: "integer" }),
  pageSize,
});

export const CursorQuery = z.object({
  cursor: z
    .string()
    .optional()
    .openapi({ description: "Opaque cursor from `next` or `previous`", example: "eyJrIjoiMDE5..." }),
  pageSize,
});

/** `pagination=false` returns a plain array (organization and member lists). */
export const PaginationSwitch = z.object({
  pagination: booleanQuery({ description: "`false` returns a plain array", example: "true" }),
});

export const pageOf = <T extends ZodType>(item: T, name: string) =>
  z
    .object({
      count: z
        .number()
        .int()
        .openapi({ description: "How many items the whole list holds, over all its pages", example: 1 }),
      next: z.string().nullable().openapi({ description: "Absolute URL of the next page", example: null }),
      previous: z.string().nullable().openapi({ description: "Absolute URL of the previous page", example: null }),
      results: z.array(item).openapi({ description: "The items on this page" }),
    })
    .openapi(name);

export const cursorPageOf = <T extends ZodType>(item: T, name: string) =>
  z
    .object({
      next: z.string().nullable().openapi({ description: "Absolute URL of the next page", example: null }),
      previous: z.string().nullable().openapi({ description: "Absolute URL of the previous page", example: null }),
      results: z.array(item).openapi({ description: "The items on this page" }),
    })
    .openapi(name);

export interface PageParams {
  page: number;
  pageSize: number;
  limit: number;
  offset: number;
}

/** `page` and `pageSize` in a POST body (a search), as the spec lists them among its parameters. */
export const BodyPageFields = {
  page: z.number().int().min(1).optional().openapi({ description: "Page number, from 1", example: 1 }),
  // Clamped as the query string's is (bodyPageParams).
  pageSize: z
    .number()
    .int()
    .optional()
    .openapi({ description: `Items per page, 1..${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE})`, example: 20 }),
};

/**
 * The page a POST asks for: the query string's `page`/`pageSize` when the URL has them (so the answer's `next` and
 * `previous`, which set them, work with the same body), else the body's.
 */
export function bodyPageParams(
  c: Context,
  query: { page: number; pageSize: number },
  body: { page?: number; pageSize?: number },
): PageParams {
  return pageParams({
    page: c.req.query("page") === undefined ? (body.page ?? query.page) : query.page,
    pageSize: c.req.query("pageSize") === undefined ? clampPageSize(body.pageSize ?? query.pageSize) : query.pageSize,
  });
}

export const pageParams = (q: { page: number; pageSize: number }): PageParams => ({
  ...q,
  limit: q.pageSize,
  offset: (q.page - 1) * q.pageSize,
});

function pageUrl(c: Context, params: Record<string, string | null>): string {
  const url = new URL(c.req.url);
  for (const [k, v] of Object.entries(params)) {
    if (v === null) url.searchParams.delete(k);
    else url.searchParams.set(k, v);
  }
  return url.toString();
}

/**
 * Builds `{count, next, previous, results}`; a page past the end is 404 "Invalid page.". A GET's link to page 1 has no
 * `page`; a POST's says `page=1`, since without it the body's page would be read again (`bodyPageParams`).
 */
export function pageResponse<T>(c: Context, p: PageParams, count: number, results: T[]) {
  if (p.page > 1 && p.offset >= count) throw new ApiError(404, "not_found", "Invalid page.");
  const hasNext = p.offset + results.length < count;
  return {
    count,
    next: hasNext ? pageUrl(c, { page: String(p.page + 1) }) : null,
    previous:
      p.page > 1 ? pageUrl(c, { page: p.page === 2 && c.req.method === "GET" ? null : String(p.page - 1) }) : null,
    results,
  };
}

export interface Cursor {
  /** Sort key of the boundary row (sequence number, timestamp or id). */
  k: string | number;
  /** Direction: "n" = rows after the boundary in list order, "p" = rows before it. */
  d: "n" | "p";
}

export function encodeCursor(cursor: Cursor): string {
  return toBase64Url(JSON.stringify(cursor));
}

export function decodeCursor(raw: string | undefined): Cursor | null {
  if (!raw) return null;
  try {
    const parsed = JSON.parse(new TextDecoder().decode(fromBase64Url(raw)));
    if ((typeof parsed.k === "string" || typeof parsed.k === "number") && (parsed.d === "n" || parsed.d === "p"))
      return parsed;
  } catch {
    // fall through
  }
  throw new ApiError(400, "invalid", "Invalid cursor.", { cursor: ["Invalid cursor."] });
}

/**
 * Cursor page from rows fetched with `pageSize + 1` in the requested direction.
 * `rows` must already be in list order; `key` reads the sort key of a row.
 */
export function cursorResponse<T>(
  c: Context,
  cursor: Cursor | null,
  pageSize: number,
  fetched: T[],
  key: (row: T) => string | number,
) {
  const backwards = cursor?.d === "p";
  const hasMore = fetched.length > pageSize;
  let rows = hasMore ? fetched.slice(0, pageSize) : fetched;
  if (backwards) rows = rows.reverse();
  const hasNext = backwards ? true : hasMore;
  const hasPrevious = backwards ? hasMore : cursor !== null;
  return {
    next:
      hasNext && rows.length ? pageUrl(c, { cursor: encodeCursor({ k: key(rows[rows.length - 1]), d: "n" }) }) : null,
    previous: hasPrevious && rows.length ? pageUrl(c, { cursor: encodeCursor({ k: key(rows[0]), d: "p" }) }) : null,
    results: rows,
  };
}

/**
 * Comma-separated ids in a query string (`?labels=<id>,<id>`), also accepted as repeated keys. One that is no id is
 * refused, naming it: it matched nothing, so a slip read as an empty list.
 */
export const csvIds = (description: string) =>
  z
    // A key given more than once reaches the schema as an array of its values.
    .preprocess((v) => (Array.isArray(v) ? v.join(",") : v), z.string().optional())
    .transform((v, ctx) => {
      if (!v) return undefined;
      const ids = v
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
      const bad = ids.find((id) => !isUuid(id));
      if (bad !== undefined) ctx.addIssue({ code: "custom", message: `Not an id: ${bad.slice(0, 40)}` });
      return ids;
    })
    .openapi({ description, example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d", type: "string" });
