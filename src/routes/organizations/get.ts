import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json } from "../../lib/openapi";
import { notFound } from "../../lib/errors";
import { orgAccess } from "../../services/access";
import { getOrganizationRecord } from "../../services/organizations";
import { planSettings } from "../../services/plans";
import { dataParts } from "../../services/shards/parts";
import { OrganizationSchema } from "../../services/records/organizations";

const route = createRoute({
  method: "get",
  path: "/organizations/{id}/",
  tags: ["Organizations"],
  summary: "An organization the caller is a member of",
  request: { params: IdParams },
  responses: { 200: json(OrganizationSchema, "The organization"), ...errorResponses(404) },
});

export const registerGetOrganization = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await orgAccess(c, c.req.valid("param").id);
    const record = await getOrganizationRecord(
      c.var.db,
      await dataParts(c.env, access.organizationId),
      access.organizationId,
      planSettings(c.env),
    );
    if (!record) throw notFound();
    return c.json(record, 200);
  });
