import { createRoute } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { organizations } from "../../db/schema";
import { uuidv7 } from "../../lib/ids";
import { organizationInserts } from "../../services/accounts";
import { getOrganizationRecord } from "../../services/organizations";
import { planSettings } from "../../services/plans";
import { OrganizationSchema, OrganizationWrite } from "./schema";

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
    const db = c.var.db;
    const id = uuidv7();
    const plans = planSettings(c.env);
    await db.batch([
      ...organizationInserts(db, c.var.principal.userId, name, id, plans.defaultPlan.id),
      db.update(organizations).set({ compactLogo, fullLogo }).where(eq(organizations.id, id)),
    ]);
    return c.json((await getOrganizationRecord(db, id, plans))!, 201);
  });
