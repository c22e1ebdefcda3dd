import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses } from "../../lib/openapi";
import { ApiError } from "../../lib/errors";
import { boundaryOf, MultipartError, MultipartReader } from "../../services/uploads/multipart";
import { mediaType } from "../../services/uploads/file-specs";
import { signingCredentials } from "../../services/uploads/settings";
import { PolicyError, verifyPostPolicy } from "../../services/uploads/signing";
import { bodyLengthOf, TooLarge, unusedUploadOfKey, writePart } from "../../services/uploads/store";
import { countArrival, pastUploadBytes, uploadRoom } from "../../services/uploads/allowance";

const route = createRoute({
  method: "post",
  path: "/uploads/",
  tags: ["Attachments"],
  summary: "Upload target of presigned POST uploads (S3 POST Object semantics)",
  description:
    "No API key: the signed policy is the credential. `multipart/form-data` with the fields " +
    "`upload-presigned-url/` returned, then `file` last. " +
    "The policy is checked as S3 does (signature, expiration, every condition, content-length-range) before a " +
    "byte is stored; " +
    "the stored content type is the declared Content-Type field when the policy asks for one, else the one of " +
    "the presigned filename; " +
    "the file streams to storage. 204 on success; 403 with S3's code (`SignatureDoesNotMatch`, " +
    "`AccessDenied`) for a bad or expired policy; " +
    "400 `EntityTooLarge` / `EntityTooSmall` outside the size range; 403 `permission_denied` when the file would " +
    "take the organization past its plan's upload bytes. Nothing is stored on failure.",
  security: [],
  request: {
    body: {
      content: {
        "multipart/form-data": {
          schema: z.object({
            key: z.string().openapi({ description: "fields.key", example: "uploads/.../cat.png" }),
            file: z.any().openapi({ type: "string", format: "binary", description: "The file, last", example: "" }),
          }),
        },
      },
      required: true,
    },
  },
  responses: { 204: { description: "Stored" }, ...errorResponses(400, 403, 415) },
});

/**
 * The Content-Type the policy bound (the client opted into one), else the presigned filename's; the
 * file part's own type (browsers send one, Python's requests none) only for an extension no table knows.
 */
function storedType(declared: string | null, ofFilename: string | null, ofPart: string | null): string {
  if (declared) return declared;
  if (ofFilename && ofFilename !== OCTET_STREAM) return ofFilename;
  return mediaType(ofPart) || OCTET_STREAM;
}
const OCTET_STREAM = "application/octet-stream";

const s3Error = (err: PolicyError) => new ApiError(err.status, err.code, err.message);

export const registerPostObject = (r: Router) => {
  r.openAPIRegistry.registerPath(route);
  r.post("/uploads/", async (c) => {
    const contentType = c.req.header("Content-Type") ?? "";
    const boundary = /^multipart\/form-data/i.test(contentType) ? boundaryOf(contentType) : null;
    if (!boundary || !c.req.raw.body)
      throw new ApiError(
        400,
        "MalformedPOSTRequest",
        "The body of your POST request is not well-formed multipart/form-data.",
      );
    const creds = await signingCredentials(c.env);
    const reader = new MultipartReader(c.req.raw.body, boundary);
    try {
      const form = new Map<string, string>();
      let file: { filename: string | null; contentType: string | null } | null = null;
      for (let part = await reader.next(); part; part = await reader.next()) {
        if (part.name.toLowerCase() === "file") {
          file = part;
          break;
        }
        form.set(part.name.toLowerCase(), await reader.text());
      }
      if (!file)
        throw new ApiError(
          400,
          "InvalidArgument",
          "POST requires exactly one file upload per request, as the last part, named `file`.",
        );
      const policy = await verifyPostPolicy(creds, form).catch((err) => {
        throw err instanceof PolicyError ? s3Error(err) : err;
      });
      const { upload, data } = await unusedUploadOfKey(c.env, policy.key);
      // The plan's room bounds the file as the policy does: refused before a byte is stored.
      const room = await uploadRoom(c.env, upload.organizationId, data);
      const max = room ? Math.min(policy.maxSize, room.left) : policy.maxSize;
      const size = await writePart(
        c.env,
        reader,
        policy.key,
        bodyLengthOf(c.req.raw),
        { min: policy.minSize, max },
        storedType(policy.contentType, upload.contentType, file.contentType),
      ).catch((err) => {
        if (err instanceof TooLarge && room && max < policy.maxSize && !/least/.test(err.message))
          throw pastUploadBytes(room);
        if (err instanceof TooLarge)
          throw new ApiError(
            400,
            /least/.test(err.message) ? "EntityTooSmall" : "EntityTooLarge",
            `Your proposed upload ` +
              `${/least/.test(err.message) ? "is smaller than the minimum" : "exceeds the maximum"} allowed ` +
              `size. ${err.message}`,
          );
        throw err;
      });
      await countArrival(c.env, data, { organizationId: upload.organizationId, key: policy.key, size });
      return c.body(null, 204, { Location: `${new URL(c.req.url).origin}/api/v1/uploads/${policy.key}` });
    } catch (err) {
      await reader.cancel();
      if (err instanceof MultipartError)
        throw new ApiError(
          400,
          "MalformedPOSTRequest",
          `The body of your POST request is not well-formed multipart/form-data: ${err.message}`,
        );
      throw err;
    }
  });
};
