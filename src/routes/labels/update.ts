import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json, jsonBody } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { updateLabel } from "../../services/labels";
import { labelRecord } from "../../services/records/labels";
import { LabelPatch, LabelSchema } from "../../services/records/labels";
import { LABELS_TAG } from "./schema";

const route = createRoute({
  method: "patch",
  path: "/labels/{id}/",
  tags: [LABELS_TAG],
  summary: "Change a conversation label",
  description:
    "Needs `label.manage`. Only the fields sent change; names are unique within the organization (409). " +
    "Conversations carrying it show the change at once.",
  request: { params: IdParams, ...jsonBody(LabelPatch) },
  responses: { 200: json(LabelSchema, "The label"), ...errorResponses(400, 403, 404, 409) },
});

export const registerUpdateLabel = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "label.manage");
    return c.json(
      labelRecord(await updateLabel(c.var.db, access.organizationId, c.req.valid("param").id, c.req.valid("json"))),
      200,
    );
  });
