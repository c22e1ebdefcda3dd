import { z } from "@hono/zod-openapi";
import { MEMBER_AVAILABILITIES } from "../../db/schema";
import { IdName, Timestamp } from "../../lib/openapi";
import { ms } from "../../lib/time";
import type { MemberView } from "../members";

const EXAMPLE_ID = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d";

export const Availability = z.enum(MEMBER_AVAILABILITIES).openapi({
  description: "Whether automatic assignment gives them conversations: only when `online`",
  example: "online",
});

export const MemberSchema = z
  .object({
    id: z.string().openapi({
      description: "The member's id (their membership of the organization, not their user id)",
      example: EXAMPLE_ID,
    }),
    user: z
      .object({
        id: z.string().openapi({ description: "The user's id", example: EXAMPLE_ID }),
        name: z.string().openapi({ description: "The user's name", example: "Ada Lovelace" }),
        email: z.string().openapi({ description: "The user's e-mail address", example: "ada@example.com" }),
        avatar: z
          .string()
          .nullable()
          .openapi({ description: "http(s) URL of the user's picture; null: none", example: null }),
      })
      .openapi({ description: "The member's user account" }),
    organization: z.string().openapi({ description: "Organization id", example: EXAMPLE_ID }),
    isOwner: z.boolean().openapi({ description: "Owners can do everything in the organization", example: false }),
    groups: z.array(IdName).openapi({ description: "Groups (roles) the member is in" }),
    metadata: z
      .record(z.string(), z.unknown())
      .openapi({ description: "Custom member information", example: { department: "Sales" } }),
    availability: Availability,
    capacity: z.number().int().nullable().openapi({
      description:
        "Conversations they serve at once before automatic assignment passes them by; null: the inbox's capacity",
      example: null,
    }),
    createdAt: Timestamp,
  })
  .openapi("Member");

export type MemberRecord = z.infer<typeof MemberSchema>;

export const memberRecord = (v: MemberView): MemberRecord => ({
  id: v.member.id,
  user: v.user,
  organization: v.member.organizationId,
  isOwner: v.member.isOwner,
  groups: v.groups,
  metadata: v.member.metadata ?? {},
  availability: v.member.availability,
  capacity: v.member.capacity,
  createdAt: ms(v.member.createdAt)!,
});
