import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, storedFile } from "../../lib/openapi";
import { notFound } from "../../lib/errors";

const PublicFileParams = z.object({
  path: z.string().openapi({
    param: { name: "path", in: "path" },
    description: "Object path below `public/`, slashes included",
    example: "organizations/0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d/0190a5c3-0000-7000-8000-000000000000-logo.png",
  }),
});

const CACHE_CONTROL = "public, max-age=3600";
/** R2 object names are at most 1,024 bytes; a longer path names none of our objects. */
const MAX_KEY_BYTES = 1024;
const encoder = new TextEncoder();

const route = createRoute({
  method: "get",
  path: "/files/public/{path}",
  tags: ["Files"],
  summary: "A stored public file (organization logos and other browser assets)",
  description: "No API key needed: the key of a public file is unguessable. Honors `If-None-Match` (304).",
  security: [],
  request: { params: PublicFileParams },
  responses: {
    200: storedFile("The file, with its content type, `ETag` and `Cache-Control`"),
    304: { description: "Not modified" },
    404: errorResponses(404)[404],
  },
});

/**
 * Documented as `/files/public/{path}`, routed as `:path{.+}`: a Hono parameter stops at a slash
 * unless given a pattern, and a pattern in the documented path would not be valid OpenAPI.
 */
export const registerGetPublicFile = (r: Router) => {
  r.openAPIRegistry.registerPath(route);
  r.get("/files/public/:path{.+}", async (c) => {
    // The request normalizer appends a slash to paths whose last segment has no dot; keys never end in one.
    const path = c.req.param("path").replace(/\/+$/, "");
    if (!path || path.split("/").some((s) => s === "" || s === "." || s === "..")) throw notFound();
    if (encoder.encode(`public/${path}`).length > MAX_KEY_BYTES || path.includes("\uFFFD")) throw notFound();
    const object = await c.env.FILES.get(`public/${path}`, { onlyIf: c.req.raw.headers });
    if (!object) throw notFound();
    const headers = new Headers();
    object.writeHttpMetadata(headers);
    headers.set("ETag", object.httpEtag);
    headers.set("Cache-Control", CACHE_CONTROL);
    headers.set("X-Content-Type-Options", "nosniff");
    headers.set("Content-Security-Policy", "default-src 'none'");
    if (!("body" in object)) return new Response(null, { status: 304, headers });
    headers.set("Content-Length", String(object.size));
    return new Response(object.body, { status: 200, headers });
  });
};
