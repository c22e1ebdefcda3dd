import type { Context, MiddlewareHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import { config, type ZodType } from "zod";
import zhTW from "zod/v4/locales/zh-TW.js";
import type { AppEnv } from "../env";

type Target = "query" | "param" | "header" | "json";
type Issues = Extract<ReturnType<ZodType["safeParse"]>, { success: false }>["error"]["issues"];
/** What a router does with a part that fails (createRouter: throws the API's 404 or 400). */
export type Reject = (target: Target, issues: Issues) => never;

/** What `createRoute` declares of a request; only what `validates` accepts gets here. */
export interface RouteRequest {
  query?: unknown;
  params?: unknown;
  headers?: unknown;
  body?: { required?: boolean; content?: Record<string, object | undefined> };
  cookies?: unknown;
}

/** Content types @hono/zod-openapi lets through to a JSON body (its `matchesMediaType`). */
const JSON_REQUEST = /^application\/([a-z-.]+\+)?json(;\s*[a-zA-Z0-9-]+=([^;]+))*$/i;

/**
 * Whether `validateRequest` checks this request exactly as @hono/zod-openapi's validators would:
 * path, query and header parameters (headers as an object schema, whose keys name them), and a JSON
 * body as the one media type. Anything else (forms, cookies, several media types) keeps the library's.
 */
export function validates(request: RouteRequest | undefined): boolean {
  if (!request || request.cookies) return false;
  if ([request.query, request.params, request.headers].some((part) => part !== undefined && !isZod(part))) return false;
  if (request.headers !== undefined && !("shape" in (request.headers as object))) return false;
  const content = request.body?.content;
  if (!content) return true;
  const types = Object.keys(content);
  const media = content[types[0]];
  return types.length === 1 && types[0] === "application/json" && !!media && "schema" in media && isZod(media.schema);
}

const isZod = (x: unknown): x is ZodType =>
  typeof x === "object" && x !== null && typeof (x as ZodType).safeParse === "function";

/**
 * zod's own messages (a schema's own message is kept as it is) in the languages other than English the product
 * speaks, for a request whose `Accept-Language` prefers one (docs/decisions.md, "Validation messages").
 */
const MESSAGES = { "zh-TW": inZhTW(zhTW().localeError) };
type ErrorMap = ReturnType<typeof zhTW>["localeError"];
type RawIssue = Parameters<ErrorMap>[0];

/** How a language says a size: what a length counts, by the kind of value zod names (`origin`), and the phrases. */
interface Sizes {
  unit: (origin: string, n: string) => string | undefined;
  empty: string;
  length: Record<"exact" | "min" | "above" | "max" | "below", string>;
  number: Record<"min" | "above" | "max" | "below", string>;
}

const ZH_UNITS: Record<string, string> = { string: "個字元", array: "項", set: "項", file: "位元組" };
const ZH: Sizes = {
  unit: (origin) => ZH_UNITS[origin],
  empty: "不可空白",
  length: {
    exact: "須為 {n} {unit}",
    min: "至少 {n} {unit}",
    above: "須多於 {n} {unit}",
    max: "最多 {n} {unit}",
    below: "須少於 {n} {unit}",
  },
  number: { min: "不可小於 {n}", above: "須大於 {n}", max: "不可大於 {n}", below: "須小於 {n}" },
};

const EN_UNITS: Record<string, [string, string]> = {
  string: ["character", "characters"],
  array: ["item", "items"],
  set: ["item", "items"],
  file: ["byte", "bytes"],
};
const EN: Sizes = {
  unit: (origin, n) => EN_UNITS[origin]?.[n === "1" ? 0 : 1],
  empty: "Can't be empty",
  length: {
    exact: "Must be {n} {unit}",
    min: "At least {n} {unit}",
    above: "More than {n} {unit}",
    max: "At most {n} {unit}",
    below: "Fewer than {n} {unit}",
  },
  number: {
    min: "Can't be less than {n}",
    above: "Must be more than {n}",
    max: "Can't be more than {n}",
    below: "Must be less than {n}",
  },
};

/**
 * A size (too short, too long, too many, out of range) said in words: zod's own messages name the value's type and
 * compare with symbols ("Too small: expected string to have >=1 characters", "數值過小：預期 string 應為 >=1 字元", for a
 * name left empty), which an operator reads at a form's field. Undefined for other sizes (dates) and other issues.
 */
function sizeInWords(issue: RawIssue, say: Sizes): string | undefined {
  if (issue.code !== "too_small" && issue.code !== "too_big") return undefined;
  const small = issue.code === "too_small";
  const n = String(small ? issue.minimum : issue.maximum);
  const open = issue.inclusive === false;
  const unit = say.unit(issue.origin, n);
  const fill = (phrase: string) => phrase.replace("{n}", n).replace("{unit}", unit ?? "");
  if (unit) {
    if (issue.exact) return fill(say.length.exact);
    if (small && issue.origin === "string" && n === "1") return say.empty;
    return fill(small ? (open ? say.length.above : say.length.min) : open ? say.length.below : say.length.max);
  }
  if (!["number", "int", "bigint"].includes(issue.origin)) return undefined;
  return fill(small ? (open ? say.number.above : say.number.min) : open ? say.number.below : say.number.max);
}

/**
 * zod's zh-TW messages, with a field left out said as "必填", a query number that is not one as "須為數字" and a size
 * in words (as in English, below); other issues are zod's.
 */
function inZhTW(zod: ErrorMap): ErrorMap {
  return (issue: RawIssue) => valueless(issue, "必填", "須為數字") ?? sizeInWords(issue, ZH) ?? zod(issue);
}

/**
 * Two of zod's messages name a JavaScript value, not anything a client sent: a field left out is "expected string,
 * received undefined" (`nonoptional` for a form's missing part; for a field of fixed choices, the choices, as for a
 * wrong one) and a query number that is not one "received NaN". They are said as `missing` and `notANumber` instead;
 * undefined for any other issue.
 */
function valueless(issue: RawIssue, missing: string, notANumber: string): string | undefined {
  if (issue.code === "invalid_value" && issue.input === undefined) return missing;
  if (issue.code !== "invalid_type") return undefined;
  if (issue.input === undefined) return missing;
  return typeof issue.input === "number" && Number.isNaN(issue.input) ? notANumber : undefined;
}

// In English as the contract's example says ("Required"), sizes in words; set once for the isolate, under the
// per-parse zh-TW messages (which outrank it); every other message is zod's own.
config({ customError: (issue) => valueless(issue, "Required", "Expected a number") ?? sizeInWords(issue, EN) });

/**
 * The messages `Accept-Language` asks for: the first of its languages by weight that the product speaks (English,
 * or Chinese as written in Taiwan: `zh-TW`, `zh-Hant`, `zh-HK`, `zh-MO`); null for English, the API's own.
 */
export function messagesFor(acceptLanguage: string | undefined): ErrorMap | null {
  if (!acceptLanguage) return null;
  const ranked = acceptLanguage
    .split(",")
    .map((part, i) => {
      const [tag, ...params] = part.trim().split(";");
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag: tag.trim().toLowerCase(), q: q === undefined ? 1 : Number(q), i };
    })
    .filter((l) => l.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  for (const { tag } of ranked) {
    if (/^zh-(tw|hk|mo|hant)\b/.test(tag)) return MESSAGES["zh-TW"];
    if (/^en\b/.test(tag) || tag === "*") return null;
  }
  return null;
}

type Result = ReturnType<ZodType["safeParse"]>;
/** A part of the request and the schema it is checked against. */
type Part = { target: Target; schema: ZodType; value: unknown };

/** The part's data, parsed; `refuse` when it fails. A schema with asynchronous checks is parsed asynchronously. */
function check(c: Context, part: Part, reject: Reject): object | Promise<object> {
  let result: Result;
  try {
    result = part.schema.safeParse(part.value);
  } catch {
    return part.schema
      .safeParseAsync(part.value)
      .then((first) => (first.success ? (first.data as object) : refuse(c, part, reject, first.error.issues, true)));
  }
  return result.success ? (result.data as object) : refuse(c, part, reject, result.error.issues, false);
}

/**
 * `reject`s the part with zod's messages in the request's language: parsed again with them, so only a refused request
 * pays for it.
 */
function refuse(c: Context, part: Part, reject: Reject, issues: Issues, async: boolean): never | Promise<never> {
  const error = part.target === "param" ? null : messagesFor(c.req.header("accept-language"));
  if (!error) return reject(part.target, issues);
  const again = (answer: Result) => reject(part.target, answer.success ? issues : answer.error.issues);
  return async
    ? part.schema.safeParseAsync(part.value, { error }).then(again)
    : again(part.schema.safeParse(part.value, { error }));
}

/**
 * A query parameter never holds a NUL character (no id, date or search text has one): SQLite's LIKE reads a pattern
 * only up to it, so a search for "\0" was a search for anything, every row.
 */
const NUL_REFUSED = "Contains a NUL character (%00).";

/** A body sent without a Content-Type (the library's `hasRequestBody`). */
async function hasBody(c: Context) {
  const raw = c.req.raw;
  if (raw.body === null) return false;
  if (raw.bodyUsed) return (await c.req.arrayBuffer()).byteLength > 0;
  const reader = raw.clone().body!.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return false;
      if (value.byteLength > 0) return true;
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}

/**
 * One middleware that validates a route's request in the order and with the outcomes of
 * @hono/zod-openapi's validators (query, path, headers, then the body's media type and the body),
 * with zod's synchronous parse: the library runs one middleware per part, each through several
 * promises and zod's asynchronous parse (its three validators of a completion measured ~0.25 ms on
 * the local runtime; docs/decisions.md, "The streamed first byte"). Validated data is handed over
 * as the library's is (`c.req.valid(...)`).
 */
export function validateRequest(request: RouteRequest, reject: Reject): MiddlewareHandler<AppEnv> {
  const { query, params, headers, body } = request as {
    query?: ZodType;
    params?: ZodType;
    headers?: ZodType;
    body?: RouteRequest["body"];
  };
  const json = (body?.content?.["application/json"] as { schema?: ZodType } | undefined)?.schema;
  const required = Boolean(body?.required);
  // Header names arrive lowercased; the schema's own spelling is what the handler reads.
  const headerKeys: Record<string, string> = headers
    ? Object.fromEntries(Object.keys((headers as unknown as { shape: object }).shape).map((k) => [k.toLowerCase(), k]))
    : {};
  return async (c, next) => {
    if (query) {
      const value = Object.fromEntries(Object.entries(c.req.queries()).map(([k, v]) => [k, v.length === 1 ? v[0] : v]));
      const nul = Object.keys(value).find((k) => [value[k]].flat().some((v) => v.includes("\u0000")));
      if (nul !== undefined)
        reject("query", [{ code: "custom", path: [nul], message: NUL_REFUSED, input: value[nul] }]);
      c.req.addValidatedData("query", await check(c, { target: "query", schema: query, value }, reject));
    }
    if (params)
      c.req.addValidatedData(
        "param",
        await check(c, { target: "param", schema: params, value: c.req.param() }, reject),
      );
    if (headers) {
      const value = Object.fromEntries(Object.entries(c.req.header()).map(([k, v]) => [headerKeys[k] ?? k, v]));
      c.req.addValidatedData("header", await check(c, { target: "header", schema: headers, value }, reject));
    }
    if (json) {
      const type = c.req.header("content-type");
      // The library's 415 says only "Unsupported Media Type"; this one says what to change, as `acceptOnly`'s does.
      if (type ? !JSON_REQUEST.test(type) : await hasBody(c)) {
        const essence = (type ?? "").split(";")[0].trim().toLowerCase() || "none";
        throw new HTTPException(415, { message: `Unsupported media type "${essence}"; send application/json.` });
      }
      let value: unknown = {};
      if (type) {
        try {
          value = await c.req.json();
        } catch {
          throw new HTTPException(400, { message: "Malformed JSON in request body" });
        }
      } else if (!required) {
        c.req.addValidatedData("json", {});
        return next();
      }
      c.req.addValidatedData("json", await check(c, { target: "json", schema: json, value }, reject));
    }
    return next();
  };
}
