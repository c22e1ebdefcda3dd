import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses } from "../../lib/openapi";
import { receivePostObject } from "../../services/uploads/receive";

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

export const registerPostObject = (r: Router) => {
  r.openAPIRegistry.registerPath(route);
  r.post("/uploads/", async (c) => {
    const key = await receivePostObject(c.env, c.req.raw);
    return c.body(null, 204, { Location: `${new URL(c.req.url).origin}/api/v1/uploads/${key}` });
  });
};
