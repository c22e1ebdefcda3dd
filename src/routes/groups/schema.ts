import { z } from "@hono/zod-openapi";
import { uuidParam } from "../../lib/openapi";
import { PageQuery } from "../../lib/pagination";
import { PERMISSIONS, isPermissionId } from "../../services/permissions";

const EXAMPLE_ID = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d";

export const OrganizationParams = z.object({ organizationPk: uuidParam("organizationPk", "Organization id") });
export const GroupParams = OrganizationParams.extend({ id: uuidParam("id", "Group id") });

/** Permission ids from the catalogue (GET /permissions/); duplicates are ignored. */
const permissionIds = z
  .array(z.string())
  .superRefine((ids, ctx) => {
    const unknown = ids.filter((id) => !isPermissionId(id));
    if (unknown.length) ctx.addIssue({ code: "custom", message: `Unknown permission id: ${unknown.join(", ")}.` });
  })
  .transform((ids) => [...new Set(ids)])
  .openapi({ description: "Permission ids from GET /permissions/", example: [PERMISSIONS[3].id, PERMISSIONS[5].id] });

const fields = {
  name: z
    .string()
    .trim()
    .min(1)
    .max(150)
    .openapi({ description: "Unique in the organization", example: "Support agents" }),
  organization: z
    .string()
    .nullable()
    .optional()
    .openapi({ description: "If given, must be the organization in the path", example: EXAMPLE_ID }),
  permissions: permissionIds,
};

/** POST and PUT: name and permissions required. */
export const GroupWrite = z.object(fields).openapi("GroupWrite");
/** PATCH: every field optional. */
export const GroupPatch = z
  .object({ name: fields.name.optional(), organization: fields.organization, permissions: permissionIds.optional() })
  .openapi("GroupPatch");

export const GroupListQuery = PageQuery.extend({
  query: z
    .string()
    .max(200)
    .optional()
    .openapi({ description: "Group name contains (case-insensitive)", example: "support" }),
});
