import { snakeToCamel } from "./case";
import { ApiError } from "./errors";

/** The largest request body read whole (JSON, a platform's webhook) unless JSON_BODY_LIMIT_BYTES says otherwise. */
const DEFAULT_BODY_LIMIT = 1024 * 1024;
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/**
 * A body's bytes, read no further than `cap`: `over` when it holds more (the rest is not read, the stream cancelled).
 * A body of unknown length (chunked, or a Content-Length that lies) is not read whole into memory first.
 */
export async function readAtMost(
  body: ReadableStream<Uint8Array> | null,
  cap: number,
): Promise<{ bytes: Uint8Array; over: boolean }> {
  if (!body) return { bytes: new Uint8Array(0), over: false };
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  let over = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.byteLength > cap) {
      parts.push(value.subarray(0, cap - size));
      size = cap;
      over = true;
      await reader.cancel();
      break;
    }
    parts.push(value);
    size += value.byteLength;
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.byteLength;
  }
  return { bytes, over };
}

/**
 * A request's body as text, refused before it is read when its declared length is over the limit
 * (413) and after when it turns out longer; bytes that are not UTF-8 are a 400 (`what` names the body).
 */
export async function readBodyText(
  request: Request,
  limitSetting: string | undefined,
  what = "The body",
): Promise<string> {
  const limit = Number(limitSetting) || DEFAULT_BODY_LIMIT;
  const tooLarge = () => new ApiError(413, "payload_too_large", `Request body exceeds ${limit} bytes.`);
  if (Number(request.headers.get("Content-Length") ?? 0) > limit) throw tooLarge();
  const { bytes, over } = await readAtMost(request.body, limit);
  if (over) throw tooLarge();
  try {
    return utf8.decode(bytes);
  } catch {
    throw new ApiError(400, "parse_error", `${what} is not valid UTF-8.`);
  }
}

/**
 * Normalizes an API request before routing (CONTRACT section 1): the trailing slash is optional,
 * so it is added where missing, and snake_case query keys gain their camelCase name.
 */
export function normalizeRequest(request: Request): Request {
  if (isNormal(request.url)) return request;
  const url = new URL(request.url);
  let changed = false;
  if (url.pathname.startsWith("/api") && !url.pathname.endsWith("/")) {
    const last = url.pathname.slice(url.pathname.lastIndexOf("/") + 1);
    // A file's name (`openapi.json`) keeps its form; a segment with a dot in it (a share link's `<id>.<signature>`)
    // is no file.
    if (!/\.[a-z0-9]{1,5}$/i.test(last)) {
      url.pathname += "/";
      changed = true;
    }
  }
  for (const key of [...url.searchParams.keys()]) {
    if (!key.includes("_")) continue;
    const camel = snakeToCamel(key);
    if (!url.searchParams.has(camel)) {
      for (const v of url.searchParams.getAll(key)) url.searchParams.append(camel, v);
      changed = true;
    }
  }
  return changed ? new Request(url, request) : request;
}

/**
 * Whether a request URL needs nothing from normalizeRequest, read off the string (most API
 * requests: parsing a URL costs the runtime more than the rest of routing).
 */
function isNormal(href: string): boolean {
  const query = href.indexOf("?");
  const end = query < 0 ? href.length : query;
  const start = href.indexOf("/", href.indexOf("//") + 2);
  if (start < 0 || start > end) return false;
  const path = href.slice(start, end);
  if (path.startsWith("/api") && !path.endsWith("/")) return false;
  return query < 0 || !href.includes("_", query);
}
