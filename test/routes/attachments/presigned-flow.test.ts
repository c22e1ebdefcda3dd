import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { uploads } from "../../../src/db/schema";
import { data, expectError, PREFIXES, seedMember, seedOwner, type Actor } from "../../harness";
import { PNG, postForm, presign } from "./support";
import { bodyOf } from "../../support/api";

const b64decode = (s: string) => JSON.parse(atob(s));

describe("presigned POST upload (three steps, as real clients do)", () => {
  it("signs a policy, accepts a requests-style multipart form with the file last (204); the key attaches", async () => {
    const owner = await seedOwner();
    for (const prefix of PREFIXES) {
      // 1. snake_case JSON body
      const res = await owner.fetch(
        "POST",
        "/upload-presigned-url/",
        { filename: "cat.png", model_name: "attachment", field_name: "file", file_size: PNG.length },
        { prefix },
      );
      expect(res.status, await res.clone().text()).toBe(200);
      const p = await bodyOf<"POST /upload-presigned-url/">(res);
      expect(p.method).toBe("POST");
      expect(p.url).toBe("http://localhost/api/v1/uploads/");
      expect(p.fields.key).toMatch(new RegExp(`^uploads/${owner.organizationId}/attachment/[0-9a-f-]{36}/cat\\.png$`));
      expect(p.fields["x-amz-algorithm"]).toBe("AWS4-HMAC-SHA256");
      expect(p.fields["x-amz-credential"]).toMatch(/^[^/]+\/\d{8}\/auto\/s3\/aws4_request$/);
      const policy = b64decode(p.fields.policy);
      expect(Date.parse(policy.expiration)).toBeGreaterThan(Date.now());
      expect(policy.conditions).toContainEqual({ key: p.fields.key });
      // An empty file is refused, as attachments-upload/ refuses it.
      expect(policy.conditions).toContainEqual(["content-length-range", 1, PNG.length]);
      expect(policy.conditions.some((c: Record<string, unknown>) => "bucket" in c)).toBe(true);

      // 2. the form: every field, then the file
      const up = await postForm(p.url, p.fields, { filename: "cat.png", bytes: PNG });
      expect(up.status, await up.clone().text()).toBe(204);
      const stored = await env.FILES.get(p.fields.key);
      expect(new Uint8Array(await stored!.arrayBuffer())).toEqual(PNG);
      expect(stored!.httpMetadata?.contentType).toBe("image/png");

      // 3. attach it
      const att = await owner.fetch("POST", "/attachments/", { file: p.fields.key, filename: "cat.png" }, { prefix });
      expect(att.status, await att.clone().text()).toBe(201);
      const record = await bodyOf<"POST /attachments/">(att);
      expect(record.type).toBe("image");
      const { SELF } = await import("cloudflare:test");
      const got = await SELF.fetch(record.file);
      expect(got.status).toBe(200);
      expect(new Uint8Array(await got.arrayBuffer())).toEqual(PNG);
    }
  });

  it("takes camelCase, and the fields from the query string (a declared content type is in the policy)", async () => {
    const owner = await seedOwner();
    const res = await owner.fetch(
      "POST",
      "/upload-presigned-url/?filename=notes.pdf&modelName=chatbot-file&field_name=file&content_type=application/pdf",
      { fileSize: 2048 },
    );
    expect(res.status, await res.clone().text()).toBe(200);
    const p = await bodyOf<"POST /upload-presigned-url/">(res);
    expect(p.fields.key).toContain("/chatbot-file/");
    expect(p.fields["Content-Type"]).toBe("application/pdf");
  });

  it("rejects a tampered policy, an expired policy, an oversize file and a changed key; nothing stored", async () => {
    const owner = await seedOwner();
    const fresh = () =>
      presign(owner, { filename: "cat.png", modelName: "attachment", fieldName: "file", fileSize: PNG.length });
    const nothingAt = async (key: string) => expect(await env.FILES.head(key)).toBeNull();

    let p = await fresh();
    const tampered = b64decode(p.fields.policy);
    tampered.conditions = tampered.conditions.map((c: unknown) =>
      Array.isArray(c) && c[0] === "content-length-range" ? ["content-length-range", 0, 10 ** 9] : c,
    );
    let res = await postForm(
      p.url,
      { ...p.fields, policy: btoa(JSON.stringify(tampered)) },
      { filename: "cat.png", bytes: PNG },
    );
    await expectError(res, 403, "SignatureDoesNotMatch");
    await nothingAt(p.fields.key);

    p = await fresh();
    res = await postForm(
      p.url,
      { ...p.fields, "x-amz-signature": "0".repeat(64) },
      { filename: "cat.png", bytes: PNG },
    );
    await expectError(res, 403, "SignatureDoesNotMatch");

    p = await fresh();
    const big = new Uint8Array(PNG.length + 1);
    res = await postForm(p.url, p.fields, { filename: "cat.png", bytes: big });
    await expectError(res, 400, "EntityTooLarge");
    await nothingAt(p.fields.key);

    p = await fresh();
    const otherKey = p.fields.key.replace(owner.organizationId, "01900000-0000-7000-8000-000000000000");
    res = await postForm(p.url, { ...p.fields, key: otherKey }, { filename: "cat.png", bytes: PNG });
    await expectError(res, 403, "AccessDenied");
    await nothingAt(otherKey);
    await nothingAt(p.fields.key);

    p = await fresh();
    res = await postForm(
      p.url,
      { ...p.fields, key: "public/organizations/evil.png" },
      { filename: "cat.png", bytes: PNG },
    );
    await expectError(res, 403, "AccessDenied");
    await nothingAt("public/organizations/evil.png");

    // Expired: sign as of two hours ago (the policy lives one hour).
    const { signingCredentials } = await import("../../../src/services/uploads/settings");
    const { signPostPolicy } = await import("../../../src/services/uploads/signing");
    p = await fresh();
    const old = await signPostPolicy(await signingCredentials(env), {
      key: p.fields.key,
      contentType: "image/png",
      minSize: 0,
      maxSize: PNG.length,
      expiresInSeconds: 3600,
      now: new Date(Date.now() - 7_200_000),
    });
    res = await postForm(p.url, old, { filename: "cat.png", bytes: PNG });
    const body = await expectError(res, 403, "AccessDenied");
    expect(body.detail).toMatch(/expired/i);
    await nothingAt(p.fields.key);

    // A file sent before the fields does not satisfy the policy (S3 ignores fields after the file).
    p = await fresh();
    res = await postForm(p.url, {}, { filename: "cat.png", bytes: PNG });
    await expectError(res, 403);
    await nothingAt(p.fields.key);
    const [row] = await (await data(owner.organizationId)).select().from(uploads).where(eq(uploads.key, p.fields.key));
    expect(row.uploadedAt).toBeNull();
  });

  it("an empty file is refused by the policy (EntityTooSmall); nothing stored", async () => {
    const owner = await seedOwner();
    const p = await presign(owner, { filename: "cat.png", modelName: "attachment", fieldName: "file", fileSize: 10 });
    await expectError(
      await postForm(p.url, p.fields, { filename: "cat.png", bytes: new Uint8Array(0) }),
      400,
      "EntityTooSmall",
    );
    expect(await env.FILES.head(p.fields.key)).toBeNull();
  });

  it("an upload is used once", async () => {
    const owner = await seedOwner();
    const p = await presign(owner, {
      filename: "cat.png",
      modelName: "attachment",
      fieldName: "file",
      fileSize: PNG.length,
    });
    expect((await postForm(p.url, p.fields, { filename: "cat.png", bytes: PNG })).status).toBe(204);
    await expectError(await postForm(p.url, p.fields, { filename: "cat.png", bytes: PNG }), 403, "AccessDenied");
  });

  it("bad input is 400 naming the rule; 401 without a key; 403 without the permission", async () => {
    const owner = await seedOwner();
    const ask = (actor: Actor, body: Record<string, unknown>) => actor.fetch("POST", "/upload-presigned-url/", body);
    const file = { filename: "cat.png", modelName: "attachment", fieldName: "file", fileSize: 1 };
    const { fileSize: _, ...sizeless } = file;
    expect((await expectError(await ask(owner, sizeless), 400, "invalid")).detail).toMatch(/fileSize/);
    // Each body breaks one rule, which the 400 names.
    const broken: [Record<string, unknown>, RegExp][] = [
      [{ ...file, modelName: "spaceship" }, /attachment, chatbot-file/],
      [{ ...file, filename: "run.exe" }, /\.png/],
      // No type was declared: none is named (not one guessed from a name without an extension).
      [{ ...file, filename: "README" }, /^"README" is not an allowed file type; allowed: \.jpg/],
      [{ ...file, contentType: "text/x-shellscript" }, /^"cat.png" \(text\/x-shellscript\) is not an allowed/],
      [{ filename: "logo.png", modelName: "web-chat", fieldName: "avatar", fileSize: 2097153 }, /2097152/],
      [{ ...file, filename: "faq.md", modelName: "knowledge-base-file", fileSize: 10485761 }, /10485760 .* md files/],
    ];
    for (const [body, rule] of broken) expect((await expectError(await ask(owner, body), 400)).detail).toMatch(rule);
    // `errors` names the field that is wrong: the name for its extension, the size for the size, a declared type.
    const fieldOf = async (body: Record<string, unknown>) =>
      Object.keys((await expectError(await ask(owner, body), 400, "invalid")).errors!);
    expect(await fieldOf({ ...file, filename: "run.exe" })).toEqual(["filename"]);
    expect(await fieldOf({ ...file, fileSize: 20971521 })).toEqual(["fileSize"]);
    expect(await fieldOf({ ...file, contentType: "application/x-msdownload" })).toEqual(["contentType"]);
    await expectError(await ask(owner, { ...file, fileSize: -1 }), 400);
    // An empty file is refused here, as attachments-upload/ and knowledge base files refuse it.
    expect(await fieldOf({ ...file, fileSize: 0 })).toEqual(["fileSize"]);
    // Names are looked up as the service's own: Object.prototype's members are unknown, not a 500.
    const unknown: [Record<string, unknown>, string][] = [
      [{ ...file, fieldName: "constructor" }, "fieldName"],
      [{ ...file, fieldName: "__proto__" }, "fieldName"],
      [{ ...file, modelName: "constructor" }, "modelName"],
      [{ ...file, filename: "a.constructor" }, "filename"],
      [{ ...file, filename: "a.__proto__" }, "filename"],
    ];
    for (const [body, field] of unknown) expect(await fieldOf(body)).toEqual([field]);
    const rows = await (await data(owner.organizationId))
      .select()
      .from(uploads)
      .where(eq(uploads.organizationId, owner.organizationId));
    expect(rows).toHaveLength(0);

    const { call } = await import("../../harness");
    await expectError(await call("POST", "/api/v1/upload-presigned-url/", file), 401, "not_authenticated");
    const member = await seedMember(owner, ["conversation.manage"]);
    expect((await ask(member, file)).status).toBe(200);
    await expectError(
      await ask(member, { ...file, filename: "a.pdf", modelName: "knowledge-base-file" }),
      403,
      "permission_denied",
    );
  });

  it("PUT type: a presigned PUT to our own target, checked the same way", async () => {
    const owner = await seedOwner();
    const settings = { PRESIGNED_UPLOAD_METHOD: "PUT" };
    const p = await presign(
      owner,
      { filename: "cat.png", modelName: "attachment", fieldName: "file", fileSize: PNG.length },
      { settings },
    );
    expect(p.method).toBe("PUT");
    expect(Object.keys(p.fields)).toEqual(["key"]);
    expect(p.headers).toEqual({ "Content-Type": "image/png" });
    const { SELF } = await import("cloudflare:test");
    await expectError(
      await SELF.fetch(p.url.replace(/X-Amz-Signature=[0-9a-f]+/, `X-Amz-Signature=${"0".repeat(64)}`), {
        method: "PUT",
        body: PNG,
        headers: p.headers,
      }),
      403,
      "SignatureDoesNotMatch",
    );
    await expectError(
      await SELF.fetch(p.url, { method: "PUT", body: new Uint8Array(PNG.length + 5), headers: p.headers }),
      400,
      "EntityTooLarge",
    );
    await expectError(
      await SELF.fetch(p.url, { method: "PUT", body: new Uint8Array(0), headers: p.headers }),
      400,
      "EntityTooSmall",
    );
    expect(await env.FILES.head(p.fields.key)).toBeNull();
    const res = await SELF.fetch(p.url, { method: "PUT", body: PNG, headers: p.headers });
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await env.FILES.head(p.fields.key))?.size).toBe(PNG.length);
    const att = await owner.fetch("POST", "/attachments/", { file: p.fields.key, filename: "cat.png" });
    expect(att.status).toBe(201);
  });

  it("with R2 credentials, PUT URLs point at R2's S3 endpoint", async () => {
    const owner = await seedOwner();
    const settings = {
      PRESIGNED_UPLOAD_METHOD: "PUT",
      R2_ACCOUNT_ID: "acc123",
      R2_ACCESS_KEY_ID: "AKIDEXAMPLE",
      R2_SECRET_ACCESS_KEY: "secret",
      R2_BUCKET_NAME: "files",
    };
    const p = await presign(
      owner,
      { filename: "cat.png", modelName: "attachment", fieldName: "file", fileSize: PNG.length },
      { settings },
    );
    const url = new URL(p.url);
    expect(url.origin).toBe("https://acc123.r2.cloudflarestorage.com");
    expect(url.pathname.startsWith("/files/uploads/")).toBe(true);
    expect(url.searchParams.get("X-Amz-Credential")).toMatch(/^AKIDEXAMPLE\//);
    await expectError(
      await owner.fetch(
        "POST",
        "/upload-presigned-url/",
        { filename: "cat.png", modelName: "attachment", fieldName: "file", fileSize: 1 },
        { settings: { R2_ACCOUNT_ID: "acc123" } },
      ),
      503,
      "not_configured",
    );
  });
});
