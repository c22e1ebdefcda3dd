import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { createOrganization } from "../../services/organizations";
import { planSettings } from "../../services/plans";
import { OrganizationSchema } from "../../services/records/organizations";
import { OrganizationWrite } from "./schema";

const CreateOrganization = OrganizationWrite.pick({ name: true, compactLogo: true, fullLogo: true });

const route = createRoute({
  method: "post",
  path: "/organizations/",
  tags: ["Organizations"],
  summary: "Create an organization owned by the caller",
  description:
    "Any authenticated user may create one; the caller becomes its owner and first member. Logos are URLs here.",
  request: jsonBody(CreateOrganization),
  responses: { 201: json(OrganizationSchema, "Created"), ...errorResponses(400, 415) },
});

export const registerCreateOrganization = (r: Router) =>
  r.openapi(route, async (c) => {
    const { name, compactLogo = null, fullLogo = null } = c.req.valid("json");
    const input = { name, compactLogo, fullLogo };
    return c.json(await createOrganization(c.env, c.var.db, c.var.principal.userId, input, planSettings(c.env)), 201);
  });
