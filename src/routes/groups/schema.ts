import { z } from "@hono/zod-openapi";
import { uuidParam } from "../../lib/openapi";
import { PageQuery } from "../../lib/pagination";

export const OrganizationParams = z.object({ organizationPk: uuidParam("organizationPk", "Organization id") });
export const GroupParams = OrganizationParams.extend({ id: uuidParam("id", "Group id") });

export const GroupListQuery = PageQuery.extend({
  query: z
    .string()
    .max(200)
    .optional()
    .openapi({ description: "Group name contains (case-insensitive)", example: "support" }),
});
