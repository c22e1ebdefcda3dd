import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { createCannedResponse } from "../../services/canned-responses";
import { cannedResponseRecord } from "../../services/records/canned-responses";
import { CannedResponseCreate, CannedResponseSchema } from "../../services/records/canned-responses";
import { CANNED_RESPONSES_TAG } from "./schema";

const route = createRoute({
  method: "post",
  path: "/canned-responses/",
  tags: [CANNED_RESPONSES_TAG],
  summary: "Create a canned response",
  description:
    "Needs `canned_response.manage`. `shortCode` is unique in the organization: a taken one is a 409 (`conflict`).",
  request: jsonBody(CannedResponseCreate),
  responses: { 201: json(CannedResponseSchema, "The created canned response"), ...errorResponses(400, 403, 409) },
});

export const registerCreateCannedResponse = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "canned_response.manage");
    const row = await createCannedResponse(
      c.var.db,
      access.organizationId,
      c.var.principal.userId,
      c.req.valid("json"),
    );
    return c.json(cannedResponseRecord(row), 201);
  });
