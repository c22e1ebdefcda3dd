// Stored files answered as they are: public files and signed downloads (servedObject), a knowledge base's files as
// attachments (objectDownload).
import type { Bindings } from "../../env";
import { notFound } from "../../lib/errors";

/**
 * The object at `key` with its stored content type and ETag, cached as `cacheControl` says, and headers that keep a
 * browser from reading it as anything else (no sniffing, no script); 404 when there is none. Read under `conditions`
 * (a request's If-None-Match and the like) when given: a 304 without a body when they hold.
 */
export async function servedObject(
  env: Pick<Bindings, "FILES">,
  key: string,
  cacheControl: string,
  conditions?: Headers,
): Promise<Response> {
  const object = await env.FILES.get(key, conditions && { onlyIf: conditions });
  if (!object) throw notFound();
  const headers = new Headers();
  object.writeHttpMetadata(headers);
  headers.set("ETag", object.httpEtag);
  headers.set("Cache-Control", cacheControl);
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Content-Security-Policy", "default-src 'none'");
  if (!("body" in object)) return new Response(null, { status: 304, headers });
  headers.set("Content-Length", String(object.size));
  return new Response(object.body, { status: 200, headers });
}

/** The object at `key` as an attachment named `filename`, with its stored content type; 404 `missing` when gone. */
export async function objectDownload(
  env: Pick<Bindings, "FILES">,
  key: string,
  filename: string,
  missing: string,
): Promise<Response> {
  const object = await env.FILES.get(key);
  if (!object) throw notFound(missing);
  return new Response(object.body, {
    headers: {
      "Content-Type": object.httpMetadata?.contentType ?? "application/octet-stream",
      "Content-Disposition": `attachment; filename*=UTF-8''${encodeURIComponent(filename)}`,
      "Content-Length": String(object.size),
    },
  });
}
