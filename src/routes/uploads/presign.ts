import { createRoute, type z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { badRequest } from "../../lib/errors";
import { currentAccess, requirePermission } from "../../services/access";
import { specFor } from "../../services/uploads/file-specs";
import { presignUpload, UPLOAD_PERMISSIONS } from "../../services/uploads/presign";
import { PresignBody, PresignedUploadSchema, PresignQuery } from "./schema";

const route = createRoute({
  method: "post",
  path: "/upload-presigned-url/",
  tags: ["Attachments"],
  summary: "Sign an upload: an S3 POST policy (default) or a presigned PUT URL",
  description:
    "`modelName`, `fieldName` and `filename` come from the JSON body or the query string; `fileSize` (bytes) " +
    "is required. " +
    "Needs the permission of the model (attachment: `conversation.manage`; chatbot-file, knowledge-base-file, " +
    "batch-qa: `knowledge_base.manage`; " +
    "web-chat: `inbox.manage`; organization: `organization.manage`). An unknown model, a disallowed extension " +
    "or a size over allowed-file-specs is 400, as is an empty file (`fileSize` 0); a `fileSize` that would take " +
    "the organization past its plan's " +
    "upload bytes (`usageStatistics`) is 403 `permission_denied`. " +
    "POST: send `multipart/form-data` to `url` with every field and `file` last; 204 on success. The policy " +
    "names only the bucket, the key, the `x-amz-*` fields and the size range " +
    "(plus Content-Type when `contentType` is given), so a client posting just `key`, `x-amz-algorithm`, " +
    "`x-amz-credential`, `x-amz-date`, `policy`, `x-amz-signature` and `file` succeeds. " +
    "Then pass `fields.key` as `file` to `attachments/` or `knowledge-bases/{id}/files/`.",
  request: { query: PresignQuery, ...jsonBody(PresignBody) },
  responses: { 200: json(PresignedUploadSchema, "Where and how to upload"), ...errorResponses(400, 403, 503) },
});

type PresignFields = z.infer<typeof PresignQuery>;

/** The body's fields, else the query string's: 400 naming those given in neither (all but `contentType` are needed). */
function presignInput(query: PresignFields, body: PresignFields) {
  const pick = <K extends keyof PresignFields>(k: K) => body[k] ?? query[k];
  const input = {
    modelName: pick("modelName"),
    fieldName: pick("fieldName"),
    filename: pick("filename"),
    fileSize: pick("fileSize"),
  };
  const missing = (Object.keys(input) as (keyof typeof input)[]).filter((k) => input[k] === undefined);
  if (missing.length)
    throw badRequest(
      `Invalid request. Required: ${missing.join(", ")}.`,
      Object.fromEntries(missing.map((k) => [k, ["Required"]])),
    );
  const given = input as { [K in keyof typeof input]: NonNullable<(typeof input)[K]> };
  return { ...given, contentType: pick("contentType") };
}

export const registerPresignUpload = (r: Router) =>
  r.openapi(route, async (c) => {
    const input = presignInput(c.req.valid("query"), c.req.valid("json") ?? {});
    const access = await currentAccess(c);
    requirePermission(access, UPLOAD_PERMISSIONS[specFor(c.env, input.modelName, input.fieldName).key]);
    const caller = { organizationId: access.organizationId, userId: c.var.principal.userId };
    const upload = await presignUpload(c.env, c.var.data, { ...caller, origin: new URL(c.req.url).origin, ...input });
    return c.json(upload, 200);
  });
