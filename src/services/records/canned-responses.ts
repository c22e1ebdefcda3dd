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

// Request bodies, beside the record (docs/decisions.md, "One word per concept, and where a record's shape is
// written").

const ShortCode = z
  .string()
  .min(1, "At least 1 character")
  .max(50, "At most 50 characters")
  .regex(/^[a-z0-9_-]+$/, "Only lowercase letters, digits, _ and -")
  .openapi({
    description:
      "What an operator types after `/` in the reply box: 1-50 of a-z, 0-9, _ and -, unique in the organization",
    example: "refund",
  });

const Content = z
  .string()
  .trim()
  .min(1, "Must not be empty")
  .max(5_000, "At most 5,000 characters")
  .openapi({
    description:
      "The reply inserted. `{{contact.name}}` and `{{agent.name}}` are filled in by the console as it inserts " +
      "it (the conversation's contact, the signed-in member); other `{{...}}` stay as written",
    example: "Hi {{contact.name}}, your refund is on its way. {{agent.name}}",
  });

export const CannedResponseCreate = z
  .object({ shortCode: ShortCode, content: Content })
  .openapi("CannedResponseCreate");
export const CannedResponsePatch = z
  .object({ shortCode: ShortCode.optional(), content: Content.optional() })
  .openapi("CannedResponsePatch");

/** The bodies as the service receives them: validated, `content` trimmed. */
export type CannedResponseCreateInput = z.output<typeof CannedResponseCreate>;
export type CannedResponseInput = z.output<typeof CannedResponsePatch>;
