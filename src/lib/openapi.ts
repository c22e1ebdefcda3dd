import { OpenAPIHono, z } from "@hono/zod-openapi";
import type { ZodType } from "zod";
import type { AppEnv } from "../env";
import { ApiError, notFound } from "./errors";
import { validateRequest, validates, type Reject } from "./route-validation";
import { hasVisibleCharacter } from "./text";

export const ErrorSchema = z
  .object({
    detail: z.string().openapi({ description: "Human-readable explanation", example: "Not found." }),
    code: z.string().openapi({ description: "Stable machine code", example: "not_found" }),
    errors: z
      .record(z.string(), z.array(z.string()))
      .optional()
      .openapi({ description: "Validation messages by field path (400 only)", example: { name: ["Required"] } }),
    requestId: z.string().openapi({
      description: "The request's id, as in the X-Request-Id header: quote it when reporting a problem",
      example: "0190a5c2-7d1e-7f00-8000-3b1c2d4e5f60",
    }),
  })
  .openapi("Error");

type Issue = {
  path: PropertyKey[];
  message: string;
  code?: string;
  /** A union's (`invalid_union`): each choice's issues, their paths below the union's. */
  errors?: Issue[][];
  minimum?: unknown;
  maximum?: unknown;
};

/**
 * The issues a client can act on. A value that is one of a union's choices by its type (an object where the field is
 * an object or null) is said with that choice's issues, where zod says only "Invalid input" at the union. A value out
 * of range is said with its tightest bound only: an integer over 1000 was also "more than 9007199254740991".
 */
function actionable(issues: Issue[]): Issue[] {
  const out = issues.flatMap((issue) => {
    const fitting = issue.errors?.filter((choice) => !choice.every((i) => i.code === "invalid_type" && !i.path.length));
    if (issue.code !== "invalid_union" || fitting?.length !== 1) return [issue];
    return actionable(fitting[0].map((i) => ({ ...i, path: [...issue.path, ...i.path] })));
  });
  const key = (i: Issue) => `${i.code} ${i.path.map(String).join(".")}`;
  const bound = (i: Issue) => Number(i.code === "too_big" ? i.maximum : i.minimum);
  const tightest = new Map<string, Issue>();
  for (const i of out) {
    if (i.code !== "too_big" && i.code !== "too_small") continue;
    const held = tightest.get(key(i));
    if (!held || (i.code === "too_big" ? bound(i) < bound(held) : bound(i) > bound(held))) tightest.set(key(i), i);
  }
  return out.filter((i) => (i.code !== "too_big" && i.code !== "too_small") || tightest.get(key(i)) === i);
}

/** Turns zod issues into the contract's 400 body: `{detail, code: "invalid", errors}`. */
export function validationError(issues: Issue[]): ApiError {
  const errors: Record<string, string[]> = {};
  for (const issue of actionable(issues)) {
    const path = issue.path.map(String).join(".") || "nonFieldErrors";
    (errors[path] ??= []).push(issue.message);
  }
  const summary = Object.entries(errors)
    .slice(0, 3)
    .map(([field, messages]) => `${field}: ${messages[0]}`)
    .join("; ");
  return new ApiError(400, "invalid", `Invalid request. ${summary}`, errors);
}

/** A part of a request that fails validation: a malformed id in a path is simply a resource that does not exist
 * (CONTRACT section 1). */
const reject: Reject = (target, issues) => {
  if (target === "param") throw notFound();
  throw validationError(issues);
};

/**
 * Every router of the API comes from here, so every validation failure has the same shape. Routes
 * whose request `validateRequest` covers (parameters and a JSON body: nearly all) are validated by
 * it, in one middleware; the others by @hono/zod-openapi's own validators, with the same outcomes.
 */
export function createRouter() {
  const router = new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) reject(result.target as Parameters<Reject>[0], result.error.issues);
    },
  });
  const library = router.openapi;
  router.openapi = ((config, handler, hook) => {
    const { middleware, hide, ...route } = config;
    if (hook || !validates(route.request)) return library(config, handler, hook);
    if (!hide) router.openAPIRegistry.registerPath(route);
    const before = middleware ? [middleware].flat() : [];
    const validation = route.request ? [validateRequest(route.request, reject)] : [];
    router.on([route.method], [route.path.replaceAll(/\/{(.+?)}/g, "/:$1")], ...before, ...validation, handler);
    return router;
  }) as typeof library;
  return router;
}
export type Router = ReturnType<typeof createRouter>;

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "Invalid input; `errors` names the fields",
  401: "Missing, unknown, revoked or expired API key",
  403: "The role lacks the permission, or the plan lacks the feature",
  404: "No such resource in your organization",
  409: "Conflicts with an existing resource (or a request with the same Idempotency-Key is under way)",
  413: "Body too large",
  415: "Unsupported media type",
  422: "The Idempotency-Key was used for a different request (`idempotency_key_reused`)",
  429: "Rate limit exceeded; see Retry-After",
  502: "The model provider failed (`upstream_error`)",
};

/** Error responses for a route's `responses`; 401 and 429 apply to every authenticated route. */
export const errorResponses = (...statuses: number[]) => errorResponsesOf(ErrorSchema, ...statuses);

/** Error responses whose body is `schema`, `Error` with more fields (the AI gateway's OpenAI `error`). */
export function errorResponsesOf<T extends ZodType>(schema: T, ...statuses: number[]) {
  const all = new Set([401, 429, ...statuses]);
  return Object.fromEntries(
    [...all].map((s) => [
      s,
      { description: ERROR_DESCRIPTIONS[s] ?? "Error", content: { "application/json": { schema } } },
    ]),
  ) as Record<number, { description: string; content: { "application/json": { schema: T } } }>;
}

export const json = <T extends ZodType>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

export const jsonBody = <T extends ZodType>(
  schema: T,
  description = "JSON body; snake_case keys are accepted too",
) => ({
  body: { required: true, content: { "application/json": { schema } }, description },
});

export const noContent = { description: "Deleted" };

/**
 * A stored file's bytes, answered with the content type it was stored with (an image, a PDF, ...): `*\/*`, since
 * `application/octet-stream` would tell clients generated from the document that every answer is that type.
 */
export const storedFile = (description: string) => ({
  description,
  content: { "*/*": { schema: z.any().openapi({ type: "string", format: "binary" }) } },
});

/** The optional `Idempotency-Key` of requests that store a message (src/middleware/idempotency.ts). */
export const IdempotencyHeaders = z.object({
  "idempotency-key": z
    .string()
    .max(255)
    .optional()
    .openapi({
      description:
        "A key of yours (a UUID) for this message: sent again with the same request within 24 hours, it " +
        "returns the first request's outcome " +
        "(header `Idempotent-Replayed: true`) instead of storing the message twice; with a different request, " +
        "or in another organization, it is 422 `idempotency_key_reused`, " +
        "while the first is under way 409 `idempotency_in_progress`",
      example: "6f1c8e0a-3b2d-4c5e-9f7a-1b2c3d4e5f60",
    }),
});

export const uuidParam = (name: string, description: string) =>
  z.string().openapi({ param: { name, in: "path" }, description, example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" });

export const IdParams = z.object({ id: uuidParam("id", "Resource id") });

/**
 * A day of the calendar, `YYYY-MM-DD`. `Date.parse` takes 2026-11-31 as December 1st: a day that does not read back
 * as written is refused, as statistics refuse it.
 */
export const calendarDay = () =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "YYYY-MM-DD")
    .refine((v) => {
      const t = Date.parse(`${v}T00:00:00Z`);
      return !Number.isNaN(t) && new Date(t).toISOString().startsWith(v);
    }, "Not a day of the calendar");

/** An optional day in a list's query, `YYYY-MM-DD` (a `calendarDay`, read as UTC by `parseDate`). */
export const dayQuery = (description: string) =>
  calendarDay().optional().openapi({ description, example: "2026-01-31" });

/** `{id, name}` references; in requests only `id` is read. */
export const IdName = z
  .object({
    id: z
      .string()
      .openapi({ description: "The referenced record's id", example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" }),
    name: z.string().openapi({ description: "Its name, as it is now", example: "Support" }),
  })
  .openapi("IdName", { description: "A reference to another record of the organization: its id and its name" });
export const IdRef = z.object({
  id: z.uuid().openapi({ description: "Referenced id", example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" }),
});

/** A write's optional `groups` (`[{id}]`, at most 50): who may see or use the resource. */
export const GroupRefs = (description: string, example: { id: string }[] = []) =>
  z.array(IdRef).max(50).nullable().optional().openapi({ description, example });

/**
 * Text people read on one line (a name): no control characters, which broke the lists, exports and e-mails it shows
 * in (a NUL cut it short, a line break split a row). Unicode's Cc, written as ranges: the OpenAPI document's
 * `pattern` then reads the same without the `u` flag. docs/decisions.md, "Names are one line".
 */
export const oneLine = (text: z.ZodString) =>
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
  text.regex(/^[^\x00-\x1F\x7F-\x9F]*$/, "Must not contain control characters (such as a line break, a tab or NUL).");

/** Longer text (an answer, a description): its tabs and line breaks kept, other control characters (NUL) refused. */
export const manyLines = (text: z.ZodString) =>
  text.regex(
    // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
    /^[^\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F]*$/,
    "Must not contain control characters other than tabs and line breaks (such as NUL).",
  );

/**
 * A name a write gives: trimmed, 1 to `max` characters, on one line, with a character that shows (a name of only
 * zero-width characters passed `min(1)` and showed as a blank row nobody could tell apart or click). A refinement,
 * not a pattern: the OpenAPI document stays as it was. In Unicode's composed form (NFC): "Café" typed on one system
 * and pasted from another's file name (NFD) is one name to a unique index, not two rows that read the same.
 * docs/decisions.md, "Names are one line".
 */
export const nameText = (max: number) =>
  oneLine(z.string().trim().normalize("NFC").min(1).max(max)).refine(
    // "" is min(1)'s to refuse, with its own message.
    (name) => name === "" || hasVisibleCharacter(name),
    "Must contain a visible character, not only spaces or invisible ones (such as U+200B, a zero-width space).",
  );

/** The trimmed, non-empty name of a resource a write creates or renames. */
export const NameField = (description: string, example: string) => nameText(200).openapi({ description, example });

/** A count (an integer) of a figures' schema, `example` 12 unless given. */
export const CountField = (description: string, example = 12) => z.number().int().openapi({ description, example });

/** A list's optional text filter (`query`, `search`): trimmed, at most 200 characters. */
export const SearchParam = (description: string, example: string) =>
  z.string().trim().max(200).optional().openapi({ description, example });

export const Timestamp = z.string().openapi({ description: "Milliseconds since the epoch", example: "1767225600000" });

/** A stored record's `createdAt` and `updatedAt`, spread last into its schema (see `timestampsOf`). */
export const Timestamps = { createdAt: Timestamp, updatedAt: Timestamp };
