import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { getCannedResponse } from "../../services/canned-responses";
import { cannedResponseRecord } from "../../services/records/canned-responses";
import { CannedResponseSchema } from "../../services/records/canned-responses";
import { CANNED_RESPONSES_TAG } from "./schema";

const route = createRoute({
  method: "get",
  path: "/canned-responses/{id}/",
  tags: [CANNED_RESPONSES_TAG],
  summary: "Get a canned response",
  description: "Needs `conversation.manage`.",
  request: { params: IdParams },
  responses: { 200: json(CannedResponseSchema, "The canned response"), ...errorResponses(403, 404) },
});

export const registerGetCannedResponse = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "conversation.manage");
    return c.json(
      cannedResponseRecord(await getCannedResponse(c.var.db, access.organizationId, c.req.valid("param").id)),
      200,
    );
  });
