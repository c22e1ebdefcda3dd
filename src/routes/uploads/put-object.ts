import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses } from "../../lib/openapi";
import { receivePutObject } from "../../services/uploads/receive";
import { ObjectKeyParams } from "./schema";
import { objectKeyParam } from "./key";

const route = createRoute({
  method: "put",
  path: "/uploads/{key}",
  tags: ["Attachments"],
  summary: "Upload target of presigned PUT uploads",
  description:
    "No API key: the URL's signature is the credential. Send the raw bytes with the returned headers; " +
    "`Content-Length` is required, must not exceed the signed size and must not be 0 (400 `EntityTooSmall`). " +
    "403 `permission_denied` when the file would take the organization past its plan's upload bytes.",
  security: [],
  request: { params: ObjectKeyParams },
  responses: { 200: { description: "Stored" }, ...errorResponses(400, 403, 411) },
});

export const registerPutObject = (r: Router) => {
  r.openAPIRegistry.registerPath(route);
  r.put("/uploads/:key{.+}", async (c) => {
    const etag = await receivePutObject(c.env, c.req.raw, objectKeyParam(c.req.param("key")));
    return c.body(null, 200, { ETag: etag });
  });
};
