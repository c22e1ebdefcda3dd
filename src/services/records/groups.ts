import { z } from "@hono/zod-openapi";
import type { groups } from "../../db/schema";
import { nameText, Timestamps } from "../../lib/openapi";
import { timestampsOf } from "../../lib/time";
import { PERMISSIONS, isPermissionId } from "../permissions";

const EXAMPLE_ID = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d";

export const GroupPermission = z
  .object({
    id: z.string().openapi({ description: "Stable permission id", example: PERMISSIONS[3].id }),
    name: z.string().openapi({ description: "What the permission allows, for people", example: PERMISSIONS[3].name }),
    codename: z.string().openapi({
      description: "The permission's code, as `permissions` of a membership lists it (`x.view`, `x.manage`)",
      example: PERMISSIONS[3].codename,
    }),
  })
  .openapi("GroupPermission");

export const GroupSchema = z
  .object({
    id: z.string().openapi({ description: "The group's id", example: EXAMPLE_ID }),
    name: z.string().openapi({ description: "The group's name", example: "Support agents" }),
    organization: z.string().openapi({ description: "Organization id", example: EXAMPLE_ID }),
    permissions: z.array(GroupPermission).openapi({ description: "Permissions the group grants its members" }),
    membersCount: z.number().int().openapi({ description: "Members in the group", example: 3 }),
    ...Timestamps,
  })
  .openapi("Group");

export type GroupRecord = z.infer<typeof GroupSchema>;

/** The group's record: the permissions it holds (in catalogue order) and its member count. */
export const groupRecordOf = (g: typeof groups.$inferSelect, held: Set<string>, membersCount: number): GroupRecord => ({
  id: g.id,
  name: g.name,
  organization: g.organizationId,
  permissions: PERMISSIONS.filter((p) => held.has(p.id)).map(({ id, name, codename }) => ({ id, name, codename })),
  membersCount,
  ...timestampsOf(g),
});

// Request bodies, beside the record (docs/decisions.md, "One word per concept, and where a record's shape is
// written").

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
  name: nameText(150).openapi({ description: "Unique in the organization", example: "Support agents" }),
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

/**
 * The bodies as the service receives them: validated, `permissions` without duplicates. `organization` is only
 * checked against the path (checkOrganizationField), never written.
 */
export type GroupCreateInput = z.output<typeof GroupWrite>;
export type GroupInput = z.output<typeof GroupPatch>;
