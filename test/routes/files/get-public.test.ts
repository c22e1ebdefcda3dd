import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { PREFIXES, call, expectError, seedOwner, unique } from "../../harness";
import { documentOf } from "../../support/api";

async function putFile(path: string, body: string, contentType: string) {
  await env.FILES.put(`public/${path}`, body, { httpMetadata: { contentType } });
}

describe("GET /files/public/{path}", () => {
  it.each(PREFIXES)("serves a stored public file without a key under %s", async (prefix) => {
    const path = `organizations/${unique("org")}/${unique("id")}-logo.png`;
    await putFile(path, "PNGDATA", "image/png");
    const res = await call("GET", `${prefix}/files/public/${path}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("image/png");
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=3600");
    expect(res.headers.get("ETag")).toMatch(/^"[0-9a-f]+"$/);
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(res.headers.get("X-Request-Id")).toBeTruthy();
    expect(new TextDecoder().decode(await res.arrayBuffer())).toBe("PNGDATA");
  });

  it("answers 304 to a matching If-None-Match", async () => {
    const path = `organizations/${unique("org")}/logo.gif`;
    await putFile(path, "GIF89a", "image/gif");
    const first = await call("GET", `/api/v1/files/public/${path}`);
    const etag = first.headers.get("ETag")!;
    const again = await call("GET", `/api/v1/files/public/${path}`, undefined, { "If-None-Match": etag });
    expect(again.status).toBe(304);
    expect(again.headers.get("ETag")).toBe(etag);
    expect(await again.text()).toBe("");
  });

  it("serves a name without an extension (the trailing slash the normalizer adds is ignored)", async () => {
    const path = `misc/${unique("plain")}`;
    await putFile(path, "hello", "text/plain");
    const res = await call("GET", `/api/files/public/${path}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("hello");
  });

  it("404 for a missing file; objects outside public/ are never served", async () => {
    await env.FILES.put("private/secret.txt", "secret");
    await expectError(await call("GET", "/api/v1/files/public/nothing/here.png"), 404, "not_found");
    await expectError(await call("GET", "/api/v1/files/public/"), 404, "not_found");
    // Encoded slashes reach the handler as `..` segments, which it refuses.
    await expectError(await call("GET", "/api/v1/files/public/..%2Fprivate%2Fsecret.txt"), 404, "not_found");
    // Dot segments are resolved by the URL itself: the path leaves /files/public/ and needs a key.
    await expectError(await call("GET", "/api/v1/files/public/../private/secret.txt"), 401, "not_authenticated");
    await expectError(
      await call("GET", "/api/v1/files/public/a/%2E%2E/%2E%2E/private/secret.txt"),
      401,
      "not_authenticated",
    );
  });

  it("a key is still required outside /files/public/", async () => {
    await expectError(await call("GET", "/api/v1/files/private/secret.txt"), 401, "not_authenticated");
  });
});

describe("OpenAPI document", () => {
  it("lists the public file route and both body forms of the organization update", async () => {
    const owner = await seedOwner();
    const doc = await documentOf(await owner.fetch("GET", "/openapi.json"));
    for (const prefix of PREFIXES) {
      const file = doc.paths[`${prefix}/files/public/{path}`];
      expect(file.get.tags).toEqual(["Files"]);
      expect(file.get.parameters).toEqual([expect.objectContaining({ name: "path", in: "path", required: true })]);
      expect(file.get.security).toEqual([]);
      // Served with the type it was stored with (image/png above): any type, not application/octet-stream.
      expect(Object.keys(file.get.responses[200].content ?? {})).toEqual(["*/*"]);
    }
    // So are a knowledge base file's bytes and a signed download.
    for (const path of ["/api/v1/knowledge-bases/{knowledgeBaseId}/files/{fileId}/download/", "/api/v1/uploads/{key}"])
      expect(Object.keys(doc.paths[path].get.responses[200].content ?? {}), path).toEqual(["*/*"]);
    const org = doc.paths["/api/v1/organizations/{id}/"];
    for (const method of ["put", "patch"]) {
      const content = org[method].requestBody?.content ?? {};
      expect(Object.keys(content).sort()).toEqual(["application/json", "multipart/form-data"]);
      expect(content["multipart/form-data"].schema.properties?.compactLogo).toMatchObject({
        type: "string",
        format: "binary",
      });
    }
    const members = doc.paths["/api/organizations/{organizationPk}/members/export/"];
    expect(Object.keys(members.get.responses[200].content ?? {})).toEqual([
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    ]);
    expect(doc.paths["/api/v1/organizations/{organizationPk}/members/{id}/update-groups/"].post.tags).toEqual([
      "Members",
    ]);
  });
});
