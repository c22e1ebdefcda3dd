// The one API client of the console, typed by the generated schema (./schema.d.ts, from the
// OpenAPI document: `npm run console:types`). It sends the session cookie (same origin), the
// organization the user is working in, and turns error answers into ApiProblem.
import createClient from "openapi-fetch";
import type { components, paths } from "./schema";

export type Schemas = components["schemas"];

export const api = createClient<paths>({ baseUrl: "", credentials: "same-origin" });

let organizationId: string | null = null;
/** The organization every request acts in (`X-Organization-Id`), set by the organization switcher. */
export const actInOrganization = (id: string | null) => (organizationId = id);

let onUnauthenticated: () => void = () => {};
/** Called when the API answers 401 to a signed-in request: the session lapsed or was revoked. */
export const whenSignedOut = (fn: () => void) => (onUnauthenticated = fn);

api.use({
  onRequest({ request }) {
    if (organizationId && !request.headers.has("X-Organization-Id")) request.headers.set("X-Organization-Id", organizationId);
    return request;
  },
  onResponse({ response, request }) {
    if (response.status === 401 && !new URL(request.url).pathname.endsWith("/auth/sessions/")) onUnauthenticated();
    return response;
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

/** The answer's data, or an ApiProblem (also for network failures, as status 0). */
export async function unwrap<T>(request: Promise<Answer<T>>): Promise<T> {
  let answer: Answer<T>;
  try {
    answer = await request;
  } catch (err) {
    throw new ApiProblem(0, err instanceof Error ? err.message : String(err), "network_error");
  }
  if (answer.error !== undefined || !answer.response.ok) {
    const body = (answer.error ?? {}) as { detail?: string; code?: string; errors?: Record<string, string[]> };
    throw new ApiProblem(answer.response.status, body.detail ?? answer.response.statusText, body.code ?? "error", body.errors);
  }
  return answer.data as T;
}
