import type { Bindings } from "../../env";
import { presignUrl } from "./signing";
import { signingCredentials, type SigningCredentials } from "./settings";

/** Our own object routes (upload targets and signed downloads) under the canonical prefix. */
export const OBJECT_PATH = "/api/v1/uploads/";
const OBJECT_PATH_RE = /^\/api(?:\/v1)?\/uploads\/(.+?)\/?$/;

export const encodeKey = (key: string) => key.split("/").map(encodeURIComponent).join("/");

/** Where an object is read or written by URL: R2's S3 endpoint when configured, else our own route. */
export function objectUrl(creds: SigningCredentials, origin: string, key: string): string {
  return creds.r2Endpoint
    ? `${creds.r2Endpoint}/${creds.bucket}/${encodeKey(key)}`
    : `${origin}${OBJECT_PATH}${encodeKey(key)}`;
}

/** A signed, expiring download URL for an object. */
export async function signedDownloadUrl(
  env: Bindings,
  origin: string,
  key: string,
  ttlSeconds: number,
): Promise<string> {
  const creds = await signingCredentials(env);
  return presignUrl(creds, "GET", objectUrl(creds, origin, key), ttlSeconds);
}

const KNOWLEDGE_BASE_FILE_PATH_RE =
  /^\/api(?:\/v1)?\/knowledge-bases\/([0-9a-f-]{36})\/files\/([0-9a-f-]{36})\/download\/?$/i;

/**
 * The knowledge base file a URL names when it is that file's own `file` URL (its download route on this origin, under
 * either prefix), else null. Its object key is read with the caller's view of the knowledge base, so only a service
 * that has both resolves it (knowledge/uploads.ts).
 */
export function knowledgeBaseFileOfUrl(
  origin: string,
  file: string,
): { knowledgeBaseId: string; fileId: string } | null {
  let url: URL;
  try {
    url = new URL(file);
  } catch {
    return null;
  }
  const m = url.origin === origin ? KNOWLEDGE_BASE_FILE_PATH_RE.exec(url.pathname) : null;
  return m ? { knowledgeBaseId: m[1].toLowerCase(), fileId: m[2].toLowerCase() } : null;
}

/**
 * The object key a client's `file` names: a bare key, or an absolute URL of one of our objects (our
 * own object route on this origin, or the bucket at R2's endpoint). Anything else is null: it is
 * never fetched.
 */
export async function keyOfFile(env: Bindings, origin: string, file: string): Promise<string | null> {
  if (!/^[a-z][a-z0-9+.-]*:/i.test(file)) return file.replace(/^\/+/, "");
  let url: URL;
  try {
    url = new URL(file);
  } catch {
    return null;
  }
  const decode = (path: string) => {
    try {
      return path.split("/").map(decodeURIComponent).join("/");
    } catch {
      return null;
    }
  };
  if (url.origin === origin) {
    const m = OBJECT_PATH_RE.exec(url.pathname);
    return m ? decode(m[1]) : null;
  }
  const creds = await signingCredentials(env);
  if (
    creds.r2Endpoint &&
    url.origin === new URL(creds.r2Endpoint).origin &&
    url.pathname.startsWith(`/${creds.bucket}/`)
  ) {
    return decode(url.pathname.slice(creds.bucket.length + 2));
  }
  return null;
}
