import { z } from "@hono/zod-openapi";
import { nameText, Timestamps } from "../../lib/openapi";
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

// Request bodies, beside the record (docs/decisions.md, "One word per concept, and where a record's shape is
// written").
const name = nameText(50).openapi({
  description: "1 to 50 characters, unique within the organization (409)",
  example: "Billing",
});
const color = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, "A colour as #rrggbb")
  .openapi({ description: "`#rrggbb`", example: "#1f77b4" });
const description = z
  .string()
  .max(500)
  .openapi({ description: "Up to 500 characters", example: "Questions about invoices and payments" });

export const LabelWrite = z.object({ name, color, description: description.optional() }).openapi("LabelWrite");
export const LabelPatch = z
  .object({ name: name.optional(), color: color.optional(), description: description.optional() })
  .openapi("LabelPatch");

export const labelRecord = (row: LabelRow): LabelRecord => ({
  id: row.id,
  name: row.name,
  color: row.color,
  description: row.description,
  ...timestampsOf(row),
});
