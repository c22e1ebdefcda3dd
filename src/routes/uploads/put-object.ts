import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses } from "../../lib/openapi";
import { ApiError } from "../../lib/errors";
import { mediaType } from "../../services/uploads/file-specs";
import { signingCredentials } from "../../services/uploads/settings";
import { verifyPresignedRequest } from "../../services/uploads/signing";
import { bodyLengthOf, unusedUploadOfKey } from "../../services/uploads/store";
import { countArrival, requireUploadRoom } from "../../services/uploads/allowance";
import { ObjectKeyParams } from "./schema";
import { objectKeyParam } from "./key";

const route = createRoute({
  method: "put",
  path: "/uploads/{key}",
  tags: ["Attachments"],
  summary: "Upload target of presigned PUT uploads",
  description:
    "No API key: the URL's signature is the credential. Send the raw bytes with the returned headers; " +
    "`Content-Length` is required and must not exceed the signed size. " +
    "403 `permission_denied` when the file would take the organization past its plan's upload bytes.",
  security: [],
  request: { params: ObjectKeyParams },
  responses: { 200: { description: "Stored" }, ...errorResponses(400, 403, 411) },
});

export const registerPutObject = (r: Router) => {
  r.openAPIRegistry.registerPath(route);
  r.put("/uploads/:key{.+}", async (c) => {
    const key = objectKeyParam(c.req.param("key"));
    const refused = await verifyPresignedRequest(await signingCredentials(c.env), c.req.raw);
    if (refused) throw new ApiError(refused.status, refused.code, refused.message);
    const { upload, data } = await unusedUploadOfKey(c.env, key);
    const length = bodyLengthOf(c.req.raw);
    if (length === null || !c.req.raw.body)
      throw new ApiError(411, "MissingContentLength", "You must provide the Content-Length HTTP header.");
    if (length > upload.maxSize)
      throw new ApiError(
        400,
        "EntityTooLarge",
        `Your proposed upload exceeds the maximum allowed size of ${upload.maxSize} bytes.`,
      );
    await requireUploadRoom(c.env, upload.organizationId, length, data);
    const contentType = mediaType(c.req.header("Content-Type")) || upload.contentType || "application/octet-stream";
    const object = await c.env.FILES.put(key, c.req.raw.body, { httpMetadata: { contentType } });
    await countArrival(c.env, data, { organizationId: upload.organizationId, key, size: length });
    return c.body(null, 200, { ETag: object?.httpEtag ?? "" });
  });
};
