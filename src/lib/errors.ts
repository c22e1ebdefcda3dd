import type { ContentfulStatusCode } from "hono/utils/http-status";

/** Every `code` an error body may carry: the contract's table (section 2) and docs/reference.md's "Error codes"
 * additions. */
export type ErrorCode =
  | "invalid"
  | "parse_error"
  | "not_authenticated"
  | "permission_denied"
  | "not_found"
  | "method_not_allowed"
  | "conflict"
  | "payload_too_large"
  | "unsupported_media_type"
  | "throttled"
  | "server_error"
  | "not_configured"
  | "interrupted"
  | "reply_interrupted"
  | "upstream_error"
  | "model_unavailable"
  | "not_supported"
  | "web_chat_inactive"
  | "file_upload_disabled"
  | "invalid_credentials"
  | "contact_has_conversations"
  | "default_inbox"
  | "model_in_use"
  | "idempotency_in_progress"
  | "idempotency_unfinished"
  | "idempotency_key_reused"
  | `channel_${"not_supported" | "not_configured" | "connect_failed"}`
  | "not_a_messaging_inbox"
  | "conversation_not_resolved"
  | "export_too_large"
  | `mcp_${"timeout" | "unreachable" | "unauthorized" | "not_mcp" | "too_large"}`
  | S3ErrorCode;

/** The upload target (`/uploads/...`) answers as S3 would, with S3's own codes, so S3 clients understand it. */
export type S3ErrorCode =
  | "AccessDenied"
  | "InvalidArgument"
  | "InvalidAccessKeyId"
  | "SignatureDoesNotMatch"
  | "InvalidPolicyDocument"
  | "MalformedPOSTRequest"
  | "MissingContentLength"
  | "EntityTooSmall"
  | "EntityTooLarge";

/** The one error type handlers throw; `onError` turns it into the contract's error body. */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: ErrorCode,
    readonly detail: string,
    readonly errors?: Record<string, string[]>,
    readonly headers?: Record<string, string>,
  ) {
    super(detail);
  }
}

export const notFound = (detail = "Not found.") => new ApiError(404, "not_found", detail);
export const forbidden = (detail = "You do not have permission to perform this action.") =>
  new ApiError(403, "permission_denied", detail);
export const badRequest = (detail: string, errors?: Record<string, string[]>, code: ErrorCode = "invalid") =>
  new ApiError(400, code, detail, errors);
export const conflict = (detail: string) => new ApiError(409, "conflict", detail);
export const unauthenticated = (detail = "Authentication credentials were not provided.") =>
  new ApiError(401, "not_authenticated", detail);
/** 429 of a rate limit (an API key's, a web chat's): the client may try again in `retryAfter` seconds. */
export const throttled = (retryAfter: number) =>
  new ApiError(429, "throttled", `Request was throttled. Expected available in ${retryAfter} seconds.`, undefined, {
    "Retry-After": String(retryAfter),
  });

/** Field errors of one field, the 400 shape the contract fixes. */
export const fieldError = (field: string, message: string) =>
  badRequest(`Invalid request. ${field}: ${message}`, { [field]: [message] });

/** An error's message with its cause's (drizzle wraps D1's error as the cause of its own, "Failed query: ..."). */
const errorText = (err: unknown) =>
  String((err as { message?: string })?.message ?? err) + String((err as { cause?: unknown })?.cause ?? "");

export function isUniqueViolation(err: unknown): boolean {
  return errorText(err).includes("UNIQUE constraint failed");
}

/** D1 refusing or failing a statement (its errors say `D1_...`), as opposed to an error of our own code: what a write
 * that can be made good later may let pass with a log line. */
export function isD1Error(err: unknown): boolean {
  return /\bD1_/.test(errorText(err));
}

/** CONTRACT section 2: the deployment lacks a setting this request needs; `detail` names it. */
export const notConfigured = (detail: string) => new ApiError(503, "not_configured", detail);
export const missingSetting = (setting: string, purpose: string) =>
  notConfigured(
    `${setting} is not set, so the service cannot ${purpose}. Set it with \`wrangler secret put ${setting}\` ` +
      `(locally: in .dev.vars).`,
  );

/**
 * A call to a Durable Object cut short by the platform (the object was reset by a deploy or a
 * crash, or is overloaded), as opposed to an error of our own code (`remote`): the request may
 * have taken effect before, so it is a 503 the client may retry after checking, not a 500.
 */
export function objectInterrupted(err: unknown): ApiError | null {
  const e = err as { durableObjectReset?: boolean; retryable?: boolean; overloaded?: boolean; remote?: boolean } | null;
  if (!e || typeof e !== "object" || !(e.durableObjectReset || e.overloaded || (e.retryable && !e.remote))) return null;
  return new ApiError(
    503,
    "interrupted",
    "The request was cut short by a restart on our side and may have taken effect (for a message: list the " +
      "conversation's messages) before you send it again.",
    undefined,
    { "Retry-After": "1" },
  );
}
