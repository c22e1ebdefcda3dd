import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { getLabel } from "../../services/labels";
import { labelRecord } from "../../services/records/labels";
import { LabelSchema } from "../../services/records/labels";
import { LABELS_TAG } from "./schema";

const route = createRoute({
  method: "get",
  path: "/labels/{id}/",
  tags: [LABELS_TAG],
  summary: "Get a conversation label",
  description: "Needs `conversation.view`.",
  request: { params: IdParams },
  responses: { 200: json(LabelSchema, "The label"), ...errorResponses(403, 404) },
});

export const registerGetLabel = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "conversation.view");
    return c.json(labelRecord(await getLabel(c.var.db, access.organizationId, c.req.valid("param").id)), 200);
  });
