import { env } from "cloudflare:workers";
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { uploads } from "../../../src/db/schema";
import { data, expectError, seedOwner, type Actor } from "../../harness";
import { presign, requestsMultipart } from "./support";

const MiB = 1024 * 1024;
const enc = new TextEncoder();

/** Bytes that differ everywhere (a misplaced or overwritten piece shows), with delimiter look-alikes. */
function pattern(length: number, boundary = "") {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = (i * 7 + (i >>> 11)) % 251;
  // Near where the reader's 256 KiB pieces meet: the start of a delimiter, cut short.
  if (boundary)
    for (let at = 256 * 1024 - 5; at + 60 < length; at += 256 * 1024)
      bytes.set(enc.encode(`\r\n--${boundary.slice(0, 10)}`), at);
  return bytes;
}

async function storedBytes(key: string) {
  const object = await env.FILES.get(key);
  return object ? { bytes: new Uint8Array(await object.arrayBuffer()), etag: object.etag } : null;
}

/** A requests-style body (CRLF after the closing boundary) with `after` inserted between the file and the closing
 * delimiter. */
function bodyWith(fields: Record<string, string>, file: Uint8Array, { closing = "\r\n", after = "" } = {}) {
  const { body, contentType } = requestsMultipart(fields, {
    filename: "big.pdf",
    bytes: file,
    contentType: "application/pdf",
  });
  const boundary = contentType.split("boundary=")[1];
  const ending = `\r\n--${boundary}--\r\n`;
  const head = body.subarray(0, body.length - file.length - ending.length);
  const extra = after ? `\r\n--${boundary}\r\nContent-Disposition: form-data; name="submit"\r\n\r\n${after}` : "";
  const tail = enc.encode(`${extra}\r\n--${boundary}--${closing}`);
  const out = new Uint8Array(head.length + file.length + tail.length);
  out.set(head, 0);
  out.set(file, head.length);
  out.set(tail, head.length + file.length);
  return { body: out, contentType, boundary };
}

/** A presigned POST for a PDF attachment of `fileSize` bytes. */
const presignPdf = (owner: Actor, fileSize: number) =>
  presign(owner, { filename: "big.pdf", modelName: "attachment", fieldName: "file", fileSize });

const post = (url: string, body: BodyInit, contentType: string) =>
  SELF.fetch(url, { method: "POST", body, headers: { "Content-Type": contentType } });

describe("presigned POST: large files stream into R2", () => {
  it(
    "a file of 5 MiB and more streams as it arrives (all but its end as one part), stored exactly, with or " +
      "without the CRLF after the closing boundary",
    async () => {
      const owner = await seedOwner();
      for (const closing of ["\r\n", ""]) {
        const file = pattern(6 * MiB + 12345, "x");
        const p = await presignPdf(owner, file.length);
        const { body, contentType } = bodyWith(p.fields, file, { closing });
        const res = await post(p.url, body, contentType);
        expect(res.status, await res.clone().text()).toBe(204);
        const stored = await storedBytes(p.fields.key);
        expect(stored!.bytes.length).toBe(file.length);
        expect(
          stored!.bytes.every((b, i) => b === file[i]),
          `closing ${JSON.stringify(closing)}`,
        ).toBe(true);
        // Two parts: the streamed prefix and the held-back tail (a multipart ETag counts its parts).
        expect(stored!.etag).toMatch(/-2$/);
        const [row] = await (await data(owner.organizationId))
          .select()
          .from(uploads)
          .where(eq(uploads.key, p.fields.key));
        expect(row.size).toBe(file.length);
      }
    },
  );

  it("workerd's own FormData (no CRLF after the closing boundary) streams a large file too", async () => {
    const owner = await seedOwner();
    const file = pattern(5 * MiB + 100 * 1024);
    const p = await presignPdf(owner, file.length);
    const form = new FormData();
    for (const [k, v] of Object.entries(p.fields)) form.append(k, v);
    form.append("file", new File([file], "big.pdf", { type: "application/pdf" }));
    const res = await SELF.fetch(p.url, { method: "POST", body: form });
    expect(res.status, await res.clone().text()).toBe(204);
    const stored = await storedBytes(p.fields.key);
    expect(stored!.bytes.length).toBe(file.length);
    expect(stored!.bytes.every((b, i) => b === file[i])).toBe(true);
    expect(stored!.etag).toMatch(/-2$/);
  });

  it(
    "a short field after the file (an HTML form's named submit button) is ignored, as S3 does; more than 64 KiB " +
      "after it is 400 and nothing is stored",
    async () => {
      const owner = await seedOwner();
      const file = pattern(5 * MiB + 70 * 1024);
      // Content-Length counts the field after the file too: the early size check allows for it.
      const fileSize = file.length + 1024;
      let p = await presignPdf(owner, fileSize);
      let sent = bodyWith(p.fields, file, { after: "Upload to Amazon S3" });
      let res = await post(p.url, sent.body, sent.contentType);
      expect(res.status, await res.clone().text()).toBe(204);
      const stored = await storedBytes(p.fields.key);
      expect(stored!.bytes.length).toBe(file.length);
      expect(stored!.bytes.every((b, i) => b === file[i])).toBe(true);

      p = await presignPdf(owner, file.length + 70 * 1024);
      sent = bodyWith(p.fields, file, { after: "y".repeat(65 * 1024) });
      res = await post(p.url, sent.body, sent.contentType);
      const body = await expectError(res, 400, "MalformedPOSTRequest");
      expect(body.detail).toMatch(/last part/);
      expect(await env.FILES.head(p.fields.key)).toBeNull();
      const [row] = await (await data(owner.organizationId))
        .select()
        .from(uploads)
        .where(eq(uploads.key, p.fields.key));
      expect(row.uploadedAt).toBeNull();
    },
  );

  it(
    "a file over the limit that Content-Length cannot tell (one byte over, no CRLF) is refused as it streams; " +
      "nothing is stored",
    async () => {
      const owner = await seedOwner();
      const limit = 6 * MiB;
      const file = pattern(limit + 1);
      const p = await presignPdf(owner, limit);
      const sent = bodyWith(p.fields, file, { closing: "" });
      await expectError(await post(p.url, sent.body, sent.contentType), 400, "EntityTooLarge");
      expect(await env.FILES.head(p.fields.key)).toBeNull();
      // The same file with the usual closing is refused before a byte is stored.
      const again = await presignPdf(owner, limit);
      const usual = bodyWith(again.fields, file);
      await expectError(await post(again.url, usual.body, usual.contentType), 400, "EntityTooLarge");
      expect(await env.FILES.head(again.fields.key)).toBeNull();
    },
  );

  it("a body that ends inside the streamed file (Content-Length longer than the body) stores nothing", async () => {
    const owner = await seedOwner();
    const file = pattern(6 * MiB);
    const p = await presignPdf(owner, file.length);
    const { body, contentType } = bodyWith(p.fields, file);
    // A stream that stops after half the file while the request announced the whole body.
    const half = body.subarray(0, body.length - file.length / 2);
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(half);
        c.close();
      },
    });
    const fixed = new FixedLengthStream(body.length);
    const piping = stream.pipeTo(fixed.writable).catch(() => undefined);
    const res = await SELF.fetch(p.url, {
      method: "POST",
      body: fixed.readable,
      headers: { "Content-Type": contentType },
    }).catch((err: unknown) => err);
    await piping;
    if (res instanceof Response) expect(res.status).toBeGreaterThanOrEqual(400);
    expect(await env.FILES.head(p.fields.key)).toBeNull();
  });

  it("small files (one put) and chunked bodies without Content-Length (8 MiB parts) are stored exactly", async () => {
    const owner = await seedOwner();
    for (const closing of ["\r\n", ""]) {
      const file = pattern(3 * MiB + 7, "x");
      const p = await presignPdf(owner, file.length + 1024);
      const { body, contentType } = bodyWith(p.fields, file, { closing, after: "Upload" });
      expect((await post(p.url, body, contentType)).status).toBe(204);
      const stored = await storedBytes(p.fields.key);
      expect(stored!.bytes.length).toBe(file.length);
      expect(stored!.bytes.every((b, i) => b === file[i])).toBe(true);
      expect(stored!.etag).not.toMatch(/-/);
    }
    const file = pattern(17 * MiB + 3);
    const p = await presignPdf(owner, file.length);
    const { body, contentType } = bodyWith(p.fields, file, { closing: "" });
    const chunked = new ReadableStream<Uint8Array>({
      start(c) {
        for (let at = 0; at < body.length; at += 100_000) c.enqueue(body.slice(at, at + 100_000));
        c.close();
      },
    });
    const res = await SELF.fetch(p.url, { method: "POST", body: chunked, headers: { "Content-Type": contentType } });
    expect(res.status, await res.clone().text()).toBe(204);
    const stored = await storedBytes(p.fields.key);
    expect(stored!.bytes.length).toBe(file.length);
    expect(stored!.bytes.every((b, i) => b === file[i])).toBe(true);
    // 8 MiB, 8 MiB and the rest: the bounded parts, not the streamed prefix (which would be two parts).
    expect(stored!.etag).toMatch(/-3$/);
  });
});
