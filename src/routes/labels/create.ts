import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { createLabel } from "../../services/labels";
import { labelRecord } from "../../services/records/labels";
import { LabelWrite, LabelSchema } from "../../services/records/labels";
import { LABELS_TAG } from "./schema";

const route = createRoute({
  method: "post",
  path: "/labels/",
  tags: [LABELS_TAG],
  summary: "Create a conversation label",
  description: "Needs `label.manage`. Names are unique within the organization (409).",
  request: jsonBody(LabelWrite),
  responses: { 201: json(LabelSchema, "The created label"), ...errorResponses(400, 403, 409) },
});

export const registerCreateLabel = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "label.manage");
    return c.json(labelRecord(await createLabel(c.var.db, access.organizationId, c.req.valid("json"))), 201);
  });
