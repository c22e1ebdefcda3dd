import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, noContent } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { deleteCannedResponse } from "../../services/canned-responses";
import { CANNED_RESPONSES_TAG } from "./schema";

const route = createRoute({
  method: "delete",
  path: "/canned-responses/{id}/",
  tags: [CANNED_RESPONSES_TAG],
  summary: "Delete a canned response",
  description: "Needs `canned_response.manage`.",
  request: { params: IdParams },
  responses: { 204: noContent, ...errorResponses(403, 404) },
});

export const registerDeleteCannedResponse = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "canned_response.manage");
    await deleteCannedResponse(c.var.db, access.organizationId, c.req.valid("param").id);
    return c.body(null, 204);
  });
