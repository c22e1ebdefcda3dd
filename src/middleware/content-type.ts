import type { HonoRequest } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { ApiError } from "../lib/errors";
import { snakeToCamel } from "../lib/case";

type Kind = "json" | "multipart";
const MATCHERS: Record<Kind, { name: string; test: (essence: string) => boolean }> = {
  json: { name: "application/json", test: (t) => /^application\/([\w.+-]*\+)?json$/.test(t) },
  multipart: { name: "multipart/form-data", test: (t) => t === "multipart/form-data" },
};

/**
 * Route middleware: a body of another media type is a 415 `unsupported_media_type` (the router's
 * own gate would answer 415 with a generic code). `required` also refuses a request without
 * Content-Type, for routes whose body has no sensible empty form. A multipart body declared
 * larger than `maxMultipartBytes` is refused (413) before it is read.
 * Multipart field names are camelized here, as `jsonBody` does for JSON, so `compact_logo` works.
 */
export const acceptOnly = (kinds: Kind[], { required = false, maxMultipartBytes = Infinity } = {}) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const header = c.req.header("Content-Type");
    const essence = (header ?? "").split(";")[0].trim().toLowerCase();
    if (header || required) {
      const kind = kinds.find((k) => MATCHERS[k].test(essence));
      if (!kind) {
        const names = kinds.map((k) => MATCHERS[k].name).join(" or ");
        throw new ApiError(
          415,
          "unsupported_media_type",
          `Unsupported media type "${essence || "none"}"; send ${names}.`,
        );
      }
      if (kind === "multipart") {
        if (Number(c.req.header("Content-Length") ?? 0) > maxMultipartBytes) {
          throw new ApiError(413, "payload_too_large", `Request body exceeds ${maxMultipartBytes} bytes.`);
        }
        await camelizeForm(c.req);
      }
    }
    await next();
  });

async function camelizeForm(req: HonoRequest) {
  let form: FormData;
  try {
    form = await req.formData();
  } catch (err) {
    throw new ApiError(400, "parse_error", `Malformed multipart body - ${(err as Error).message}`);
  }
  const camel = new FormData();
  const keys = new Set([...form.keys()]);
  for (const [key, value] of form.entries()) {
    const name = snakeToCamel(key);
    // camelCase wins when both spellings are sent (CONTRACT section 1).
    if (name !== key && keys.has(name)) continue;
    camel.append(name, value);
  }
  req.bodyCache.formData = camel;
}
