import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { createHmac } from "node:crypto";
import { assert, describe, expect, it } from "vitest";
import { expectError, fetchWithSettings, seedOwner, type Actor, type Settings } from "../../harness";
import { createKnowledgeBase, waitForFile } from "../../fixtures/knowledge";
import { presign, pythonRequestsPost, type Presigned, type RequestsFile } from "./support";
import { bodyOf } from "../../support/api";

/**
 * The product's Python examples, as existing customers run them: presign, then post ONLY these
 * fields, in this order, with `requests` (`files=[(name, (None, value)), ..., ("file", (filename, fileobj))]`),
 * dropping whatever else the presigned answer held; then attach the key to a knowledge base.
 */
const CLIENT_FIELDS = [
  "key",
  "x-amz-algorithm",
  "x-amz-credential",
  "x-amz-date",
  "policy",
  "x-amz-signature",
] as const;

const HANDBOOK = "Opening hours\nThe Rotterdam shop opens at nine in the morning and closes at six in the evening.\n";
const bytes = new TextEncoder().encode(HANDBOOK);

const clientUpload = (p: Presigned, filename: string, content: Uint8Array, extra: RequestsFile[] = []) =>
  pythonRequestsPost(p.url, [
    ...CLIENT_FIELDS.map((name): RequestsFile => [name, [null, p.fields[name]]]),
    ...extra,
    ["file", [filename, content]],
  ]);

/** The POST policy the presigned fields carry (base64 JSON), checked to hold an expiry and a list of conditions. */
function policyOf(p: Presigned): { expiration: string; conditions: unknown[] } {
  const { expiration, conditions }: { expiration?: unknown; conditions?: unknown } = JSON.parse(atob(p.fields.policy));
  assert(typeof expiration === "string" && Array.isArray(conditions), "a policy has an expiration and conditions");
  return { expiration, conditions };
}

/** The form field a policy condition names (`bucket` is the URL's, not a field). */
const conditionField = (c: unknown) =>
  Array.isArray(c) ? String(c[1]).replace(/^\$/, "").toLowerCase() : Object.keys(c as object)[0].toLowerCase();

/** S3's POST policy signature (AWS SigV4, "Calculating a Signature"), computed apart from the service's own code. */
function s3PolicySignature(secret: string, day: string, region: string, policy: string) {
  const mac = (key: string | Buffer, data: string) => createHmac("sha256", key).update(data).digest();
  return createHmac("sha256", mac(mac(mac(mac(`AWS4${secret}`, day), region), "s3"), "aws4_request"))
    .update(policy)
    .digest("hex");
}

/** Every condition names the bucket or a field the client posts; the size range is the only other one. */
function expectClientSatisfiable(p: Presigned) {
  const { conditions } = policyOf(p);
  const named = conditions.filter((c) => !(Array.isArray(c) && c[0] === "content-length-range")).map(conditionField);
  expect(new Set(named)).toEqual(
    new Set(["bucket", ...CLIENT_FIELDS.filter((f) => f !== "policy" && f !== "x-amz-signature")]),
  );
  expect(conditions).toContainEqual(["content-length-range", 1, bytes.length]);
  expect(p.fields).not.toHaveProperty("Content-Type");
}

async function presignHandbook(owner: Actor, settings?: Settings, extra: Record<string, unknown> = {}) {
  // Real clients send all four in the JSON body, snake_case.
  return presign(
    owner,
    { filename: "handbook.txt", model_name: "chatbot-file", field_name: "file", file_size: bytes.length, ...extra },
    { settings },
  );
}

async function attachAndIngest(owner: Actor, key: string) {
  const kb = await createKnowledgeBase(owner);
  const res = await owner.fetch("POST", `/knowledge-bases/${kb.id}/files/`, {
    files: [{ file: key, filename: "handbook.txt" }],
  });
  expect(res.status, await res.clone().text()).toBe(201);
  const [created] = await bodyOf<"POST /knowledge-bases/{knowledgeBaseId}/files/">(res);
  const file = await waitForFile(owner, kb.id, created.id);
  expect(file.status, JSON.stringify(file.processingTimeDetails)).toBe("done");
  const search = await owner.fetch("POST", `/knowledge-bases/${kb.id}/search/`, { query: "when does the shop open" });
  const page = await bodyOf<"POST /knowledge-bases/{knowledgeBaseId}/search/">(search);
  expect(page.results[0]?.text).toContain("opens at nine in the morning");
}

describe("the official Python client's upload flow, field for field", () => {
  it(
    "signs a policy such a client satisfies; its six fields and the file upload (204) and the key is ingested " +
      "into a knowledge base",
    async () => {
      const owner = await seedOwner();
      const p = await presignHandbook(owner);
      expect(p.method).toBe("POST");
      expectClientSatisfiable(p);

      const res = await SELF.fetch(clientUpload(p, "handbook.txt", bytes));
      expect(res.status, await res.clone().text()).toBe(204);
      const stored = await env.FILES.get(p.fields.key);
      expect(await stored!.text()).toBe(HANDBOOK);
      // No Content-Type was posted: the stored type is the filename's.
      expect(stored!.httpMetadata?.contentType).toBe("text/plain");

      await attachAndIngest(owner, p.fields.key);
    },
  );

  it("with R2's S3 credentials (R2_*), the policy is signed as S3 signs it; the same six fields upload", async () => {
    const owner = await seedOwner();
    const settings: Settings = {
      R2_ACCOUNT_ID: "acc123",
      R2_ACCESS_KEY_ID: "AKIDEXAMPLE",
      R2_SECRET_ACCESS_KEY: "r2-secret",
      R2_BUCKET_NAME: "files",
    };
    const p = await presignHandbook(owner, settings);
    expectClientSatisfiable(p);
    const [accessKeyId, day, region, service, terminal] = p.fields["x-amz-credential"].split("/");
    expect([accessKeyId, region, service, terminal]).toEqual(["AKIDEXAMPLE", "auto", "s3", "aws4_request"]);
    expect(p.fields["x-amz-date"].slice(0, 8)).toBe(day);
    expect(p.fields["x-amz-signature"]).toBe(s3PolicySignature("r2-secret", day, "auto", p.fields.policy));
    const { expiration, conditions } = policyOf(p);
    expect(expiration).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(conditions).toContainEqual({ bucket: "files" });
    for (const f of ["x-amz-algorithm", "x-amz-credential", "x-amz-date"])
      expect(conditions).toContainEqual({ [f]: p.fields[f] });

    const res = await fetchWithSettings(clientUpload(p, "handbook.txt", bytes), settings);
    expect(res.status, await res.clone().text()).toBe(204);
    await attachAndIngest(owner, p.fields.key);
  });

  it(
    "a Content-Type condition is the client's choice: asked for, the fields carry it and a form without it " +
      "fails as on S3",
    async () => {
      const owner = await seedOwner();
      const strict = await presignHandbook(owner, undefined, { content_type: "text/markdown" });
      expect(strict.fields["Content-Type"]).toBe("text/markdown");
      expect(policyOf(strict).conditions).toContainEqual({ "Content-Type": "text/markdown" });
      const body = await expectError(
        await SELF.fetch(clientUpload(strict, "handbook.txt", bytes)),
        403,
        "AccessDenied",
      );
      expect(body.detail).toContain("Content-Type");
      expect(await env.FILES.head(strict.fields.key)).toBeNull();
      const res = await SELF.fetch(
        clientUpload(strict, "handbook.txt", bytes, [["Content-Type", [null, "text/markdown"]]]),
      );
      expect(res.status, await res.clone().text()).toBe(204);
      expect((await env.FILES.head(strict.fields.key))?.httpMetadata?.contentType).toBe("text/markdown");

      // Without the opt-in, a field the policy does not name is refused as S3 refuses it; nothing is stored.
      const plain = await presignHandbook(owner);
      const extra = await expectError(
        await SELF.fetch(clientUpload(plain, "handbook.txt", bytes, [["Content-Type", [null, "text/plain"]]])),
        403,
        "AccessDenied",
      );
      expect(extra.detail).toMatch(/Extra input fields: content-type/);
      expect(await env.FILES.head(plain.fields.key)).toBeNull();

      // A type the spec does not allow is a 400 naming it, before anything is signed.
      const refused = await owner.fetch("POST", "/upload-presigned-url/", {
        filename: "handbook.txt",
        model_name: "chatbot-file",
        field_name: "file",
        file_size: 10,
        content_type: "image/png",
      });
      expect((await expectError(refused, 400)).detail).toMatch(/image\/png/);
    },
  );
});
