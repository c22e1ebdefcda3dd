import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { dataParts } from "../../services/shards/parts";
import { IdParams, errorResponses, noContent } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { deleteLabel } from "../../services/labels";
import { LABELS_TAG } from "./schema";

const route = createRoute({
  method: "delete",
  path: "/labels/{id}/",
  tags: [LABELS_TAG],
  summary: "Delete a conversation label",
  description: "Needs `label.manage`. Conversations keep existing; they just lose the label.",
  request: { params: IdParams },
  responses: { 204: noContent, ...errorResponses(403, 404) },
});

export const registerDeleteLabel = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "label.manage");
    await deleteLabel(
      c.var.db,
      await dataParts(c.env, access.organizationId),
      access.organizationId,
      c.req.valid("param").id,
    );
    return c.body(null, 204);
  });
