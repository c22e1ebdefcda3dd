import { z } from "@hono/zod-openapi";
import { Timestamps } from "../../lib/openapi";
import { timestampsOf } from "../../lib/time";
import type { LabelRow } from "../labels";

const EXAMPLE_ID = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d";

export const LabelSchema = z
  .object({
    id: z.string().openapi({ description: "The label's id", example: EXAMPLE_ID }),
    name: z.string().openapi({ description: "Unique within the organization", example: "Billing" }),
    color: z.string().openapi({ description: "`#rrggbb`, lower case", example: "#1f77b4" }),
    description: z.string().openapi({
      description: "What the label is for; empty when none was given",
      example: "Questions about invoices and payments",
    }),
    ...Timestamps,
  })
  .openapi("Label");

export type LabelRecord = z.infer<typeof LabelSchema>;

export const labelRecord = (row: LabelRow): LabelRecord => ({
  id: row.id,
  name: row.name,
  color: row.color,
  description: row.description,
  ...timestampsOf(row),
});
