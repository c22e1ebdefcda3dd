// The one API client of the console, typed by the generated schema (./schema.d.ts, from the
// OpenAPI document: `npm run console:types`). It sends the session cookie (same origin), the
// organization the user is working in, the console's language, and turns error answers into ApiProblem. A request the
// network fails (fetch's own rejection) is a NetworkError; anything else thrown on the way is a bug
// and propagates as it is.
import createClient from "openapi-fetch";
import { NetworkError } from "../../../widget/src/sse";
import type { components, paths } from "./schema";
import { t } from "../components/strings";
import { locale } from "../i18n";

export { NetworkError, StreamEnded, fetchOrNetworkError } from "../../../widget/src/sse";

export type Schemas = components["schemas"];
/** The JSON body a request of `method` to `path` sends (for a body the document writes inline, without a name). */
export type BodyOf<Path extends keyof paths, Method extends keyof paths[Path]> = paths[Path][Method] extends {
  requestBody?: { content: { "application/json": infer Body } };
}
  ? Body
  : never;
/** The query parameters of a GET of `path`. */
export type QueryOf<Path extends keyof paths> = paths[Path] extends { get: { parameters: { query?: infer Query } } }
  ? NonNullable<Query>
  : never;

export const api = createClient<paths>({ baseUrl: "", credentials: "same-origin" });

let organizationId: string | null = null;
/** The organization every request acts in (`X-Organization-Id`), set by the organization switcher. */
export const actInOrganization = (id: string | null) => (organizationId = id);

let onUnauthenticated: () => void = () => {};
/** Called when the API answers 401 to a signed-in request: the session lapsed or was revoked. */
export const whenSignedOut = (fn: () => void) => (onUnauthenticated = fn);

api.use({
  onRequest({ request }) {
    // The API's field messages in the console's language (docs/decisions.md, "Validation messages").
    request.headers.set("Accept-Language", locale.value);
    if (organizationId && !request.headers.has("X-Organization-Id"))
      request.headers.set("X-Organization-Id", organizationId);
    return request;
  },
  onResponse({ response, request }) {
    if (response.status === 401 && !new URL(request.url).pathname.endsWith("/auth/sessions/")) onUnauthenticated();
    return response;
  },
  // Called only when fetch itself rejects (offline, reset, aborted), never for a middleware's or a parser's error.
  onError({ error }) {
    return new NetworkError(error);
  },
});

/** An error answer of the API: `detail` for people, `code` for code, `errors` by field (400). */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly code: string,
    readonly errors: Record<string, string[]> = {},
  ) {
    super(detail);
  }
  /** The first message for a field (`baseUrl`, `files.0.name`, ...). */
  field(name: string): string | undefined {
    return this.errors[name]?.[0];
  }
}

type Answer<T> = { data?: T; error?: unknown; response: Response };

/** The answer's data, or an ApiProblem; a failed request rejects with a NetworkError. */
export async function unwrap<T>(request: Promise<Answer<T>>): Promise<T> {
  const answer = await request;
  if (answer.error !== undefined || !answer.response.ok) {
    const body = (answer.error ?? {}) as { detail?: string; code?: string; errors?: Record<string, string[]> };
    throw new ApiProblem(
      answer.response.status,
      body.detail ?? answer.response.statusText,
      body.code ?? "error",
      body.errors,
    );
  }
  return answer.data as T;
}

/** What a catch may turn into a message: the API's refusal or the network's failure. Anything else is a bug. */
export const isExpected = (err: unknown): err is ApiProblem | NetworkError =>
  err instanceof ApiProblem || err instanceof NetworkError;

/**
 * For a catch that shows what went wrong: the API's refusal as it is, the network's failure as a
 * problem of status 0 (shown as "could not be reached"); anything else is thrown again, so a bug
 * is never shown as a failed request.
 */
export function problemOf(err: unknown): ApiProblem {
  if (err instanceof ApiProblem) return err;
  if (err instanceof NetworkError) return new ApiProblem(0, t("networkError"), "network_error");
  throw err;
}

/** For `.catch`: `value` in place of an answer refused or lost in the network; a bug is thrown on. */
export const otherwise =
  <T>(value: T) =>
  (err: unknown): T => {
    if (isExpected(err)) return value;
    throw err;
  };
