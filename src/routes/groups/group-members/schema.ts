import { z } from "@hono/zod-openapi";
import { uuidParam } from "../../../lib/openapi";
import { PageQuery } from "../../../lib/pagination";
import { OrganizationParams } from "../schema";

const EXAMPLE_ID = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d";

export const GroupPkParams = OrganizationParams.extend({ groupPk: uuidParam("groupPk", "Group id") });
export const GroupMemberParams = GroupPkParams.extend({ id: uuidParam("id", "Group member id") });

export const BulkCreateGroupMembers = z
  .object({
    members: z
      .array(z.string().openapi({ example: EXAMPLE_ID }))
      .min(1)
      .max(1000)
      .openapi({
        description: "Organization member ids; members already in the group are skipped",
        example: [EXAMPLE_ID],
      }),
  })
  .openapi("BulkCreateGroupMembers");

export const GroupMemberListQuery = PageQuery.extend({
  query: z
    .string()
    .max(200)
    .optional()
    .openapi({ description: "Member name or e-mail contains (case-insensitive)", example: "ada" }),
});
