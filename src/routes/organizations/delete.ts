import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, noContent } from "../../lib/openapi";
import { orgAccess, requireOwner } from "../../services/access";
import { deleteOrganization } from "../../services/organizations";

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
    // Members, groups, assistants, inboxes... go with it through ON DELETE CASCADE; stored objects after.
    const removeStorage = await deleteOrganization(c.env, c.var.db, access.organizationId);
    c.executionCtx.waitUntil(removeStorage());
    return c.body(null, 204);
  });
