import type { ContentfulStatusCode } from "hono/utils/http-status";
import { ApiError } from "../../lib/errors";
import { ModelError } from "./types";

/**
 * A provider failure as the API reports it: `upstream_error` (502, 504) when the provider failed,
 * `model_unavailable` (400) when the model cannot be used as configured. Other errors pass through.
 */
export function modelApiError(err: unknown): unknown {
  if (!(err instanceof ModelError)) return err;
  const status = err.status as ContentfulStatusCode;
  return new ApiError(status, status >= 500 ? "upstream_error" : "model_unavailable", err.message);
}

/** The most of a provider's message an error shows. */
const SHOWN_CHARACTERS = 300;

/**
 * A provider's message as an error may show it: the API key hidden wherever it appears, then cut. In that order: a
 * message cut first may keep most of a long key (a JWT, a proxy's token) past the point where it no longer matches
 * the key, and that part would show.
 */
export const providerText = (text: string, apiKey: string | null | undefined): string =>
  (apiKey ? text.split(apiKey).join("***") : text).slice(0, SHOWN_CHARACTERS);
