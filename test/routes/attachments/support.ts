import { SELF } from "cloudflare:test";
import { expect } from "vitest";
import { type Actor, fetchWithSettings, type Settings } from "../../harness";
import { bodyOf } from "../../support/api";

/** A tiny valid PNG (1x1). */
export const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="),
  (c) => c.charCodeAt(0),
);

const enc = new TextEncoder();

/**
 * A multipart body the way Python's `requests` builds it for `post(url, data=fields, files={"file": ...})`:
 * a hex boundary, the fields first (no Content-Type), then the file, `--boundary--\r\n` to close.
 */
export function requestsMultipart(
  fields: Record<string, string>,
  file: { filename: string; bytes: Uint8Array; contentType?: string },
  name = "file",
) {
  const boundary = crypto.randomUUID().replace(/-/g, "");
  const parts: Uint8Array[] = [];
  for (const [k, v] of Object.entries(fields))
    parts.push(enc.encode(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  const type = file.contentType ? `Content-Type: ${file.contentType}\r\n` : "";
  parts.push(
    enc.encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${file.filename}"\r\n${type}\r\n`,
    ),
    file.bytes,
    enc.encode(`\r\n--${boundary}--\r\n`),
  );
  const body = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) body.set(p, at), (at += p.length);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** The form to an upload target, on the deployment's `settings` when given (the target reads the plan from them). */
export async function postForm(
  url: string,
  fields: Record<string, string>,
  file: { filename: string; bytes: Uint8Array; contentType?: string },
  headers: Record<string, string> = {},
  settings?: Settings,
) {
  const { body, contentType } = requestsMultipart(fields, file);
  const request = new Request(url.startsWith("http") ? url : `http://localhost${url}`, {
    method: "POST",
    body,
    headers: { "Content-Type": contentType, ...headers },
  });
  return settings ? fetchWithSettings(request, settings) : SELF.fetch(request);
}

export interface Presigned {
  url: string;
  fields: Record<string, string>;
  method: string;
  headers?: Record<string, string>;
}

export async function presign(
  actor: Actor,
  body: Record<string, unknown>,
  init: Parameters<Actor["fetch"]>[3] = {},
): Promise<Presigned> {
  const res = await actor.fetch("POST", "/upload-presigned-url/", body, init);
  expect(res.status, await res.clone().text()).toBe(200);
  return await bodyOf<"POST /upload-presigned-url/">(res);
}

/** Presign and upload an attachment the three-step way (on `settings`, when given); returns the key. */
export async function uploadKey(
  actor: Actor,
  filename = "cat.png",
  bytes: Uint8Array = PNG,
  contentType = "image/png",
  settings?: Settings,
  model = { model_name: "attachment", field_name: "file" },
): Promise<string> {
  const p = await presign(actor, { filename, ...model, file_size: bytes.length }, { settings });
  const res = await postForm(p.url, p.fields, { filename, bytes, contentType }, {}, settings);
  expect(res.status, await res.clone().text()).toBe(204);
  return p.fields.key;
}

/** A part of Python `requests`' `files=[...]` list: `(name, (None, value))` for a field, `(name, (filename, fileobj))`
 * for a file. */
export type RequestsFile = [name: string, part: [filename: string | null, content: string | Uint8Array]];

/**
 * The request Python's `requests.post(url, files=parts)` sends, byte for byte as requests 2.x and
 * urllib3 build it: a 32-hex-digit boundary; each part's `Content-Disposition: form-data; name="..."`
 * (with `; filename="..."` for a file) and no Content-Type header, as `(filename, fileobj)`
 * 2-tuples set none; a CRLF after each part's data; `--boundary--\r\n` to close; the headers
 * requests adds by default.
 */
export function pythonRequestsPost(url: string, parts: RequestsFile[]): Request {
  const boundary = [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("");
  const chunks: Uint8Array[] = [];
  for (const [name, [filename, content]] of parts) {
    const disposition = `form-data; name="${name}"${filename === null ? "" : `; filename="${filename}"`}`;
    chunks.push(
      enc.encode(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n\r\n`),
      typeof content === "string" ? enc.encode(content) : content,
      enc.encode("\r\n"),
    );
  }
  chunks.push(enc.encode(`--${boundary}--\r\n`));
  const body = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) body.set(c, at), (at += c.length);
  return new Request(url.startsWith("http") ? url : `http://localhost${url}`, {
    method: "POST",
    body,
    headers: {
      "User-Agent": "python-requests/2.32.3",
      "Accept-Encoding": "gzip, deflate",
      Accept: "*/*",
      Connection: "keep-alive",
      "Content-Length": String(body.length),
      "Content-Type": `multipart/form-data; boundary=${boundary}`,
    },
  });
}
