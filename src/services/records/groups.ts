import { z } from "@hono/zod-openapi";
import type { groups } from "../../db/schema";
import { Timestamps } from "../../lib/openapi";
import { timestampsOf } from "../../lib/time";
import { PERMISSIONS } from "../permissions";

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
