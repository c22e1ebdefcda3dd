import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { presignVisitorUpload } from "../../services/widget/uploads";
import { PresignedUploadSchema } from "../uploads/schema";
import { chatVisitor } from "./visitor";
import { UploadBody, VISITOR_SECURITY, WIDGET_TAG, WebChatParams } from "./schema";

const route = createRoute({
  method: "post",
  path: "/web-chats/{id}/public/uploads/",
  tags: [WIDGET_TAG],
  summary: "Presign the upload of a file the visitor attaches",
  description:
    "Needs the visitor token, and a web chat with `enableFileUpload` (else 403 `file_upload_disabled`). The " +
    "file is checked " +
    "against allowed-file-specs `attachment` (a disallowed extension or a size over the limit is 400; one past " +
    "the organization's plan's upload bytes 403 `permission_denied`) and " +
    "keyed under the web " +
    "chat's organization. Answers as `upload-presigned-url/` does: POST `multipart/form-data` to `url` with " +
    "every field and `file` " +
    "last (204), then send `fields.key` as `attachments[].file` with a message (`messages/`).",
  security: VISITOR_SECURITY,
  request: { params: WebChatParams, ...jsonBody(UploadBody) },
  responses: { 200: json(PresignedUploadSchema, "Where and how to upload"), ...errorResponses(400, 403, 404, 503) },
});

export const registerWidgetUpload = (r: Router) =>
  r.openapi(route, async (c) => {
    const { chat, visitor, data } = await chatVisitor(c, c.req.valid("param").id);
    const upload = await presignVisitorUpload(
      c.env,
      data,
      chat,
      visitor,
      new URL(c.req.url).origin,
      c.req.valid("json"),
    );
    return c.json(upload, 200);
  });
