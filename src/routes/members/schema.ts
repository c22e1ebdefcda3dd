import { z } from "@hono/zod-openapi";
import { IdName, Timestamp, uuidParam } from "../../lib/openapi";
import { csv } from "../../lib/pagination";
import { MEMBER_AVAILABILITIES } from "../../db/schema";
import { MAX_IDS_PER_QUERY, MAX_SEARCH_TERMS } from "../../services/members";

const EXAMPLE_ID = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d";

export const Availability = z.enum(MEMBER_AVAILABILITIES).openapi({
  description: "Whether automatic assignment gives them conversations: only when `online`",
  example: "online",
});

export const MemberSchema = z
  .object({
    id: z.string().openapi({ example: EXAMPLE_ID }),
    user: z
      .object({
        id: z.string().openapi({ example: EXAMPLE_ID }),
        name: z.string().openapi({ example: "Ada Lovelace" }),
        email: z.string().openapi({ example: "ada@example.com" }),
        avatar: z.string().nullable().openapi({ example: null }),
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

export const OrganizationParams = z.object({ organizationPk: uuidParam("organizationPk", "Organization id") });
export const MemberParams = OrganizationParams.extend({ id: uuidParam("id", "Member id") });

/** Filters shared by the member list and its spreadsheet export. */
export const MemberFilterQuery = z.object({
  query: z
    .string()
    .trim()
    .max(200)
    .optional()
    .openapi({ description: "Name or e-mail contains (case-insensitive)", example: "ada" }),
  group: z.uuid().optional().openapi({ description: "Members of this group", example: EXAMPLE_ID }),
  ids: csv(`Comma-separated member ids (at most ${MAX_IDS_PER_QUERY})`),
  inbox: z.uuid().optional().openapi({
    description: "Members who can reach this inbox's assistant: owners and members of the assistant's groups",
    example: EXAMPLE_ID,
  }),
  search: z
    .string()
    .trim()
    .max(200)
    .optional()
    .openapi({
      description: `Every word (first ${MAX_SEARCH_TERMS}) matches the name, the e-mail or a metadata value`,
      example: "sales ada",
    }),
});
