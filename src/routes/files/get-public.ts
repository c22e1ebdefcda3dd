import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, storedFile } from "../../lib/openapi";
import { servedObject } from "../../services/uploads/served";
import { objectKeyParam } from "../uploads/key";

const PublicFileParams = z.object({
  path: z.string().openapi({
    param: { name: "path", in: "path" },
    description: "Object path below `public/`, slashes included",
    example: "organizations/0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d/0190a5c3-0000-7000-8000-000000000000-logo.png",
  }),
});

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
    // Below `public/`: any other key (a signed upload's) is not served here, whatever `..` the path holds.
    const key = objectKeyParam(`public/${c.req.param("path")}`);
    return servedObject(c.env, key, "public, max-age=3600", c.req.raw.headers);
  });
};
