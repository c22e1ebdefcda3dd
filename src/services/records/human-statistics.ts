import { z } from "@hono/zod-openapi";
import { HUMAN_GROUPS } from "../statistics/human";

const ID = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d";

const seconds = (description: string, example: number) =>
  z
    .number()
    .nullable()
    .openapi({ description: `${description}; null when none`, example });

const Durations = (what: string) =>
  z.object({
    count: z
      .number()
      .int()
      .openapi({ description: `Stretches with a ${what}`, example: 40 }),
    median: seconds("Median, in seconds", 95.5),
    p90: seconds("90th percentile, in seconds (interpolated between ranks)", 610),
  });

const rating = (n: number, example: number) =>
  z
    .number()
    .int()
    .openapi({ description: `Conversations rated ${n}`, example });

export const CsatSchema = z
  .object({
    count: z.number().int().openapi({
      description: "Conversations of the stretches with a satisfaction rating (each counted once)",
      example: 25,
    }),
    average: z
      .number()
      .nullable()
      .openapi({ description: "Their mean rating (1-5, two decimals); null when none", example: 4.32 }),
    distribution: z
      .object({ "1": rating(1, 1), "2": rating(2, 1), "3": rating(3, 2), "4": rating(4, 7), "5": rating(5, 14) })
      .openapi({ description: "Conversations per rating" }),
  })
  .openapi("HumanCsat", { description: "Customer satisfaction: the ratings of the stretches' conversations" });

const figures = {
  handoffsCount: z.number().int().openapi({
    description: "Stretches with people queued in the range (handoffs, operators' takeovers)",
    example: 48,
  }),
  resolvedCount: z.number().int().openapi({ description: "Of them, ended resolved (not handed back)", example: 41 }),
  waitingTime: Durations("first assignment or first response").openapi({
    description:
      "Time waiting for a person: queued to the first assignment or first public reply of a member, whichever " +
      "came first",
  }),
  firstResponseTime: Durations("first response").openapi({
    description: "Time to the first human response: queued to the first public message of a member",
  }),
  resolutionTime: Durations("resolution").openapi({
    description: "Resolution time: queued to resolved, of the stretches that ended resolved",
  }),
  csat: CsatSchema,
};

export const HumanFiguresSchema = z
  .object(figures)
  .openapi("HumanFigures", { description: "The figures of every stretch in the range, all groups together" });

export const HumanGroupFiguresSchema = z
  .object({
    key: z
      .string()
      .nullable()
      .openapi({
        description:
          "The agent's user id, the team's id, the assistant's id, or the day (YYYY-MM-DD); null: stretches " +
          "with none (no assignee, team or assistant)",
        example: ID,
      }),
    name: z.string().nullable().openapi({
      description:
        "The agent's, team's or assistant's name (the day again when by day); null with no key or a deleted one",
      example: "Ada Lovelace",
    }),
    ...figures,
  })
  .openapi("HumanGroupFigures");

export const HumanStatisticsSchema = z
  .object({
    startDate: z
      .string()
      .openapi({ description: "First day included, YYYY-MM-DD in `timezone`", example: "2026-01-01" }),
    endDate: z.string().openapi({ description: "Last day included, YYYY-MM-DD in `timezone`", example: "2026-01-31" }),
    timezone: z.string().openapi({
      description: "IANA timezone of the days, by its canonical name (Asia/Taipei for asia/taipei; default UTC)",
      example: "UTC",
    }),
    groupBy: z.enum(HUMAN_GROUPS).openapi({
      description: "What `results` is grouped by: agent, team, assistant or day, as asked (default agent)",
      example: "agent",
    }),
    total: HumanFiguresSchema,
    results: z
      .array(HumanGroupFiguresSchema)
      .openapi({ description: "Per group: agents, teams and assistants by most handoffs; days in order" }),
  })
  .openapi("HumanStatistics");

export type HumanFigures = z.infer<typeof HumanFiguresSchema>;
export type HumanGroupFigures = z.infer<typeof HumanGroupFiguresSchema>;
/** Seconds: how many stretches measured it, their median and 90th percentile (null: none). */
export type Durations = HumanFigures["waitingTime"];
export type Csat = z.infer<typeof CsatSchema>;
