import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { pageOf, pageParams, pageResponse } from "../../lib/pagination";
import { authorize } from "../../services/access";
import { listLabels } from "../../services/labels";
import { labelRecord } from "../../services/records/labels";
import { LabelSchema } from "../../services/records/labels";
import { LABELS_TAG, LabelListQuery } from "./schema";

const route = createRoute({
  method: "get",
  path: "/labels/",
  tags: [LABELS_TAG],
  summary: "List the organization's conversation labels",
  description:
    "Needs `conversation.view` (whoever sees conversations sees their labels). Ordered by name; `search`: the " +
    "name contains it.",
  request: { query: LabelListQuery },
  responses: { 200: json(pageOf(LabelSchema, "LabelPage"), "Page of labels"), ...errorResponses(400, 403) },
});

export const registerListLabels = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "conversation.view");
    const q = c.req.valid("query");
    const p = pageParams(q);
    const page = await listLabels(c.var.db, access.organizationId, q.search?.trim() || undefined, p);
    return c.json(pageResponse(c, p, page.count, page.items.map(labelRecord)), 200);
  });
