import { z } from "@hono/zod-openapi";
import { IdName } from "../../lib/openapi";
import { Availability } from "./members";

const EXAMPLE_ID = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d";

/** Whom a conversation can be assigned to (services/assignment/assignees.ts). */
export const AssigneesSchema = z
  .object({
    members: z
      .array(
        z.object({
          id: z.string().openapi({ description: "User id: `assigneeId` of `assign/`", example: EXAMPLE_ID }),
          name: z.string().openapi({ description: "The member's name", example: "Sam Lee" }),
          email: z.string().openapi({ description: "The member's e-mail address", example: "sam@example.com" }),
          availability: Availability,
          inTeam: z.boolean().openapi({
            description:
              "Whether they are in the conversation's team (always true when it has none): only they may be assigned " +
              "while it keeps that team",
            example: true,
          }),
        }),
      )
      .openapi({
        description:
          "The organization's members who may serve conversations (`conversation.manage`; at most 1,000), by name",
      }),
    teams: z.array(IdName).openapi({ description: "Groups: `teamId` of `assign/`" }),
  })
  .openapi("ConversationAssignees");

export type Assignees = z.infer<typeof AssigneesSchema>;
