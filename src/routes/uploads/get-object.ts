import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, storedFile } from "../../lib/openapi";
import { ApiError } from "../../lib/errors";
import { servedObject } from "../../services/uploads/served";
import { signingCredentials } from "../../services/uploads/settings";
import { verifyPresignedRequest } from "../../services/uploads/signing";
import { ObjectKeyParams } from "./schema";
import { objectKeyParam } from "./key";

const route = createRoute({
  method: "get",
  path: "/uploads/{key}",
  tags: ["Attachments"],
  summary: "Download a stored file through a signed, expiring URL",
  description:
    "No API key: the URL's signature is the credential (attachment records carry such URLs in `file`). 403 " +
    "once expired.",
  security: [],
  request: { params: ObjectKeyParams },
  responses: {
    200: storedFile("The file"),
    ...errorResponses(403, 404),
  },
});

export const registerGetObject = (r: Router) => {
  r.openAPIRegistry.registerPath(route);
  r.get("/uploads/:key{.+}", async (c) => {
    const key = objectKeyParam(c.req.param("key"));
    const refused = await verifyPresignedRequest(await signingCredentials(c.env), c.req.raw);
    if (refused) throw new ApiError(refused.status, refused.code, refused.message);
    return servedObject(c.env, key, "private, max-age=300");
  });
};
