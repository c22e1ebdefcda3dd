import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { PageQuery, pageOf, pageParams, pageResponse } from "../../lib/pagination";
import { authorize } from "../../services/access";
import { listCannedResponses } from "../../services/canned-responses";
import { cannedResponseRecord } from "../../services/records/canned-responses";
import { CannedResponseSchema } from "../../services/records/canned-responses";
import { CANNED_RESPONSES_TAG } from "./schema";

const ListQuery = PageQuery.extend({
  search: z.string().max(200).optional().openapi({
    description: "Only canned responses whose short code or content contains this text",
    example: "refund",
  }),
});

const route = createRoute({
  method: "get",
  path: "/canned-responses/",
  tags: [CANNED_RESPONSES_TAG],
  summary: "List the organization's canned responses",
  description: "Needs `conversation.manage` (the operators who reply use them). Sorted by short code.",
  request: { query: ListQuery },
  responses: {
    200: json(pageOf(CannedResponseSchema, "CannedResponsePage"), "Page of canned responses"),
    ...errorResponses(400, 403),
  },
});

export const registerListCannedResponses = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "conversation.manage");
    const q = c.req.valid("query");
    const p = pageParams(q);
    const page = await listCannedResponses(c.var.db, access.organizationId, p, q.search || undefined);
    return c.json(pageResponse(c, p, page.count, page.items.map(cannedResponseRecord)), 200);
  });
