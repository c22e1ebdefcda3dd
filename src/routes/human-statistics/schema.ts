import { z } from "@hono/zod-openapi";
import { booleanQuery } from "../../lib/boolean-query";
import { HUMAN_GROUPS } from "../../services/statistics/human";
import { OrganizationParams } from "../members/schema";
import { Timezone } from "../statistics/schema";

export const HUMAN_STATISTICS_TAG = "Human statistics";
export { OrganizationParams };

const ID = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d";
const DAY = (description: string, example: string) => z.string().max(10).optional().openapi({ description, example });
const filter = (description: string) => z.uuid().optional().openapi({ description, example: ID });

export const HumanStatisticsQuery = z.object({
  startDate: DAY("First day, YYYY-MM-DD in `timezone` (default: the first of the current month)", "2026-01-01"),
  endDate: DAY("Last day, YYYY-MM-DD in `timezone`, included (default: today)", "2026-01-31"),
  timezone: Timezone,
  groupBy: z
    .enum(HUMAN_GROUPS)
    .default("agent")
    .openapi({
      description:
        "`agent` (the stretch's assignee), `team`, `assistant` (the one that handed off) or `day` (the local " +
        "day it was queued; every day of the range)",
      example: "agent",
    }),
  inbox: filter("Only the stretches of this inbox"),
  chatbot: filter("Only the stretches of this assistant's conversations"),
  label: filter("Only the stretches of conversations with this label"),
  includeTests: booleanQuery({
    default: "false",
    description:
      "`true` also counts test conversations (`isTest`, the console's try-it); default `false` leaves them out",
    example: "false",
  }),
});
