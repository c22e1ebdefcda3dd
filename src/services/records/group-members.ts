import { z } from "@hono/zod-openapi";
import { Timestamp } from "../../lib/openapi";
import { ms } from "../../lib/time";
import type { GroupMemberRow } from "../groups";

const EXAMPLE_ID = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d";

/** A member's user as the lists of members of a group, or of those holding a credential, show it. */
export const MemberUserSchema = z
  .object({
    id: z.string().openapi({ description: "The user's id", example: EXAMPLE_ID }),
    name: z.string().openapi({ description: "The user's name", example: "Ada Lovelace" }),
    email: z.string().openapi({ description: "The user's e-mail address", example: "ada@example.com" }),
  })
  .openapi({ description: "The member's user" });

export const GroupMemberSchema = z
  .object({
    id: z.string().openapi({ description: "Group membership id", example: EXAMPLE_ID }),
    group: z.string().openapi({ description: "Group id", example: EXAMPLE_ID }),
    member: z
      .object({
        id: z.string().openapi({ description: "Organization member id", example: EXAMPLE_ID }),
        user: MemberUserSchema,
      })
      .openapi({ description: "The organization member" }),
    createdAt: Timestamp,
  })
  .openapi("GroupMember");

export type GroupMemberRecord = z.infer<typeof GroupMemberSchema>;

export const groupMemberRecord = (r: GroupMemberRow): GroupMemberRecord => ({
  id: r.id,
  group: r.groupId,
  member: { id: r.memberId, user: { id: r.userId, name: r.userName, email: r.userEmail } },
  createdAt: ms(r.createdAt)!,
});
