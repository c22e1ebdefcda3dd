import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json } from "../../lib/openapi";
import { notFound } from "../../lib/errors";
import { authorize } from "../../services/access";
import { findAttachment } from "../../services/uploads/attachments";
import { AttachmentSchema } from "./schema";
import { recordOf } from "./respond";

const route = createRoute({
  method: "get",
  path: "/attachments/{id}/",
  tags: ["Attachments"],
  summary: "Get an attachment, with a fresh signed download URL",
  description: "Needs `conversation.view`.",
  request: { params: IdParams },
  responses: { 200: json(AttachmentSchema, "The attachment"), ...errorResponses(403, 404) },
});

export const registerGetAttachment = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "conversation.view");
    const row = await findAttachment(c.var.data, access.organizationId, c.req.valid("param").id);
    if (!row) throw notFound();
    return c.json(await recordOf(c, row), 200);
  });
