import { z } from "@hono/zod-openapi";
import { Timestamps } from "../../lib/openapi";
import type { cannedResponses } from "../../db/schema";
import { timestampsOf } from "../../lib/time";

export const CannedResponseSchema = z
  .object({
    id: z
      .string()
      .openapi({ description: "The canned response's id", example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" }),
    shortCode: z.string().openapi({
      description: "What an operator types after `/` in the reply box to insert it; unique in the organization",
      example: "refund",
    }),
    content: z.string().openapi({
      description: "The reply inserted; the console fills in `{{contact.name}}` and `{{agent.name}}` as it inserts it",
      example: "Hi {{contact.name}}, your refund is on its way. {{agent.name}}",
    }),
    ...Timestamps,
  })
  .openapi("CannedResponse");

export type CannedResponseRecord = z.infer<typeof CannedResponseSchema>;

export const cannedResponseRecord = (row: typeof cannedResponses.$inferSelect): CannedResponseRecord => ({
  id: row.id,
  shortCode: row.shortCode,
  content: row.content,
  ...timestampsOf(row),
});
