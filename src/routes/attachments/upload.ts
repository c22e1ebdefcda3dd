import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses } from "../../lib/openapi";
import { currentAccess } from "../../services/access";
import { receiveDirectUpload } from "../../services/uploads/receive";

const route = createRoute({
  method: "post",
  path: "/attachments-upload/",
  tags: ["Attachments"],
  summary: "Upload a file directly (multipart `file`)",
  description:
    "Needs `conversation.manage` (or the permission of `modelName` when given as a field before `file`). " +
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
    const access = await currentAccess(c);
    const key = await receiveDirectUpload(c.env, c.var.data, access, c.var.principal.userId, c.req.raw);
    return c.body(null, 200, { Location: key });
  });
};
