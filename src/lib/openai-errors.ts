/** OpenAI's error `type` for an HTTP status, so OpenAI clients classify our errors as theirs. */
function openAiType(status: number): string {
  if (status === 401) return "authentication_error";
  if (status === 403) return "permission_error";
  if (status === 429) return "rate_limit_error";
  if (status >= 500) return "server_error";
  return "invalid_request_error";
}

/** The contract's `{detail, code}` plus OpenAI's `error: {message, type, code}` (OpenAI SDKs show `error.message`). */
export const withOpenAiError = (status: number, body: { detail: string; code: string } & Record<string, unknown>) => ({
  ...body,
  error: { message: body.detail, type: openAiType(status), code: body.code },
});

/** Paths of the OpenAI-compatible gateway, whose errors carry the OpenAI shape too. */
export const isOpenAiPath = (path: string) => /\/chat\/completions\/?$/.test(path);
