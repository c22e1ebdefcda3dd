import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, noContent } from "../../lib/openapi";
import { notFound } from "../../lib/errors";
import { authorize } from "../../services/access";
import { deleteAttachment, findAttachment } from "../../services/uploads/attachments";

const route = createRoute({
  method: "delete",
  path: "/attachments/{id}/",
  tags: ["Attachments"],
  summary: "Delete an attachment and its stored file",
  description: "Needs `conversation.manage`. Messages that carried it keep their text; their link stops working.",
  request: { params: IdParams },
  responses: { 204: noContent, ...errorResponses(403, 404) },
});

export const registerDeleteAttachment = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "conversation.manage");
    const row = await findAttachment(c.var.data, access.organizationId, c.req.valid("param").id);
    if (!row) throw notFound();
    await deleteAttachment(c.env, c.var.data, row);
    return c.body(null, 204);
  });
