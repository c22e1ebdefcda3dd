import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json, jsonBody } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { updateCannedResponse } from "../../services/canned-responses";
import { cannedResponseRecord } from "../../services/records/canned-responses";
import { CannedResponsePatch, CannedResponseSchema } from "../../services/records/canned-responses";
import { CANNED_RESPONSES_TAG } from "./schema";

const route = createRoute({
  method: "patch",
  path: "/canned-responses/{id}/",
  tags: [CANNED_RESPONSES_TAG],
  summary: "Update a canned response",
  description:
    "Needs `canned_response.manage`. Fields left out stay as they are; a short code another canned response " +
    "has is a 409 (`conflict`).",
  request: { params: IdParams, ...jsonBody(CannedResponsePatch) },
  responses: { 200: json(CannedResponseSchema, "The updated canned response"), ...errorResponses(400, 403, 404, 409) },
});

export const registerUpdateCannedResponse = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "canned_response.manage");
    const row = await updateCannedResponse(
      c.var.db,
      access.organizationId,
      c.req.valid("param").id,
      c.req.valid("json"),
    );
    return c.json(cannedResponseRecord(row), 200);
  });
