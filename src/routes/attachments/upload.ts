import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses } from "../../lib/openapi";
import { ApiError, badRequest } from "../../lib/errors";
import { currentAccess, requirePermission } from "../../services/access";
import { canonicalModelName, checkFile, contentTypeFor, mediaType, specFor } from "../../services/uploads/file-specs";
import { boundaryOf, MultipartError, MultipartReader } from "../../services/uploads/multipart";
import { UPLOAD_PERMISSIONS } from "../../services/uploads/presign";
import { unattachedTtlMs } from "../../services/uploads/settings";
import { bodyLengthOf, newUploadKey, TooLarge, writePart } from "../../services/uploads/store";
import { countUpload, pastUploadBytes, uploadRoom } from "../../services/uploads/allowance";

const route = createRoute({
  method: "post",
  path: "/attachments-upload/",
  tags: ["Attachments"],
  summary: "Upload a file directly (multipart `file`)",
  description:
    "Requires `conversation.manage` (or the permission of `modelName` when given as a field before `file`). " +
    "The file streams to storage. " +
    "200 with an empty body and the stored key in `Location`: pass it as `file` to `attachments/`. A " +
    "disallowed type is 415, a file over " +
    "allowed-file-specs 413, one that would take the organization past its plan's upload bytes 403.",
  request: {
    body: {
      content: {
        "multipart/form-data": {
          schema: z.object({
            file: z
              .any()
              .openapi({ type: "string", format: "binary", description: "The file (last part)", example: "" }),
            modelName: z.string().optional().openapi({ description: "Default `attachment`", example: "attachment" }),
            fieldName: z.string().optional().openapi({ description: "Default `file`", example: "file" }),
          }),
        },
      },
      required: true,
    },
  },
  responses: { 200: { description: "Stored; `Location` holds the key" }, ...errorResponses(400, 403, 413, 415) },
});

export const registerDirectUpload = (r: Router) => {
  r.openAPIRegistry.registerPath(route);
  r.post("/attachments-upload/", async (c) => {
    const contentType = c.req.header("Content-Type") ?? "";
    if (!/^multipart\/form-data/i.test(contentType))
      throw new ApiError(
        415,
        "unsupported_media_type",
        `Unsupported media type "${mediaType(contentType) || "none"}"; send multipart/form-data.`,
      );
    const boundary = boundaryOf(contentType);
    if (!boundary || !c.req.raw.body)
      throw badRequest("Malformed multipart body: no boundary.", undefined, "parse_error");
    const access = await currentAccess(c);
    const reader = new MultipartReader(c.req.raw.body, boundary);
    try {
      const fields = new Map<string, string>();
      let file: { filename: string | null; contentType: string | null } | null = null;
      for (let part = await reader.next(); part; part = await reader.next()) {
        if (part.name === "file") {
          file = part;
          break;
        }
        fields.set(
          part.name.replace(/_([a-z])/g, (_, l: string) => l.toUpperCase()),
          await reader.text(),
        );
      }
      const {
        key: specKey,
        field,
        spec,
      } = specFor(c.env, fields.get("modelName") || "attachment", fields.get("fieldName") || "file");
      requirePermission(access, UPLOAD_PERMISSIONS[specKey]);
      if (!file || file.filename === null)
        throw badRequest("Invalid request. file: Required (a file part).", { file: ["Required"] });
      const filename = (file.filename.split(/[\\/]/).pop() ?? "").trim() || "upload";
      const type = mediaType(file.contentType) || contentTypeFor(filename, spec);
      const length = bodyLengthOf(c.req.raw);
      checkFile(
        spec,
        {
          filename,
          contentType: type,
          size: length !== null ? Math.max(0, length - reader.position - reader.closingLength) : null,
        },
        "file",
        true,
      );
      const modelName = canonicalModelName(specKey);
      const key = newUploadKey(access.organizationId, modelName, filename);
      const storedType = type === "application/octet-stream" ? contentTypeFor(filename, spec) : type;
      // The plan's room bounds the file as its spec does: refused before a byte is stored.
      const room = await uploadRoom(c.env, access.organizationId, c.var.data);
      const max = room ? Math.min(spec.max_size, room.left) : spec.max_size;
      const size = await writePart(c.env, reader, key, length, { min: 1, max }, storedType).catch((err) => {
        if (err instanceof TooLarge && room && max < spec.max_size && !/least/.test(err.message))
          throw pastUploadBytes(room);
        if (err instanceof TooLarge) {
          if (/least/.test(err.message))
            throw badRequest("Invalid request. file: The file is empty.", { file: ["The file is empty."] });
          throw new ApiError(413, "payload_too_large", `"${filename}" is too large: ${err.message}`, {
            file: [`At most ${spec.max_size} bytes.`],
          });
        }
        throw err;
      });
      const ttl = unattachedTtlMs(c.env);
      const now = Date.now();
      await countUpload(c.env, c.var.data, {
        key,
        organizationId: access.organizationId,
        modelName,
        fieldName: field,
        filename,
        contentType: storedType,
        maxSize: spec.max_size,
        size,
        createdBy: c.var.principal.userId,
        uploadedAt: now,
        expiresAt: ttl === null ? null : now + ttl,
        createdAt: now,
      });
      return c.body(null, 200, { Location: key });
    } catch (err) {
      await reader.cancel();
      if (err instanceof MultipartError)
        throw badRequest(`Malformed multipart body - ${err.message}`, undefined, "parse_error");
      throw err;
    }
  });
};
