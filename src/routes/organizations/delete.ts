import { createRoute } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, noContent } from "../../lib/openapi";
import { organizations } from "../../db/schema";
import { orgAccess, requireOwner } from "../../services/access";
import { deleteOrganizationFiles } from "./logos";

const route = createRoute({
  method: "delete",
  path: "/organizations/{id}/",
  tags: ["Organizations"],
  summary: "Delete an organization and everything in it (owner only)",
  request: { params: IdParams },
  responses: { 204: noContent, ...errorResponses(403, 404) },
});

export const registerDeleteOrganization = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await orgAccess(c, c.req.valid("param").id);
    requireOwner(access);
    // Members, groups, assistants, inboxes... go with it through ON DELETE CASCADE.
    await c.var.db.delete(organizations).where(eq(organizations.id, access.organizationId));
    c.executionCtx.waitUntil(deleteOrganizationFiles(c.env.FILES, access.organizationId));
    return c.body(null, 204);
  });
