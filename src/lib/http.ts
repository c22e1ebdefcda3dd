import { snakeToCamel } from "./case";

/**
 * Normalizes an API request before routing (CONTRACT section 1): the trailing slash is optional,
 * so it is added where missing, and snake_case query keys gain their camelCase name.
 */
export function normalizeRequest(request: Request): Request {
  const url = new URL(request.url);
  let changed = false;
  if (url.pathname.startsWith("/api") && !url.pathname.endsWith("/")) {
    const last = url.pathname.slice(url.pathname.lastIndexOf("/") + 1);
    if (!last.includes(".")) {
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
