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
