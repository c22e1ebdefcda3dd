// The conversations list's query: the service reads it whole (its filters type is inferred from it, so a filter
// added here that the service does not read fails to compile in services/conversation/list.ts), the route validates
// and publishes it (docs/decisions.md, "One word per concept, and where a record's shape is written").
import { z } from "@hono/zod-openapi";
import { booleanQuery } from "../../lib/boolean-query";
import { dayQuery } from "../../lib/openapi";
import { CursorQuery } from "../../lib/pagination";
import { ConversationSchema } from "../records/conversations";

const uuid = (description: string) =>
  z.uuid().optional().openapi({ description, example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" });

export const ConversationListQuery = CursorQuery.extend({
  inbox: uuid("Only this inbox's conversations (404 when it is not the organization's); absent: every inbox"),
  chatbot: uuid("Only conversations with this assistant"),
  contact: uuid("Only this contact's conversations"),
  status: ConversationSchema.shape.status
    .optional()
    .openapi({ description: "open, queued or resolved", example: "open" }),
  progressStatus: ConversationSchema.shape.progressStatus.optional().openapi({
    description: "ai_processing, waiting_for_human, human_serving, resolved or open",
    example: "human_serving",
  }),
  startDate: dayQuery("Created on or after this day (in `timezone`), YYYY-MM-DD"),
  endDate: dayQuery("Created on or before this day (in `timezone`), YYYY-MM-DD"),
  timezone: z.string().max(64).optional().openapi({
    description: "IANA timezone `startDate` and `endDate` are days of (default UTC), as the console sends its own",
    example: "Asia/Taipei",
  }),
  keyword: z
    .string()
    .max(200)
    .optional()
    .openapi({
      description:
        "Full-text search: every word (split on spaces) is found in the title, in a message (private notes " +
        "included) or in the contact's name, case-insensitively. In messages a word matches the start of a " +
        "word (`deliv` finds `deliveries`) and Chinese or Japanese by pairs of characters (no spaces needed), " +
        "from the last 90 days; stopwords (`the`, `is`) are left out and one-character words are looked for " +
        "in the title and the contact's name only",
      example: "refund",
    }),
  label: uuid("Only conversations carrying this label"),
  assignee: z
    .union([z.uuid(), z.enum(["me", "none"])])
    .optional()
    .openapi({
      description: "Assigned to this member (user id), to the caller (`me`) or to no one (`none`)",
      example: "me",
    }),
  team: uuid("Only conversations of this team (group)"),
  view: z
    .enum(["mine", "unassigned", "waiting"])
    .optional()
    .openapi({
      description:
        "`mine`: assigned to the caller, not resolved; `unassigned`: no assignee, not resolved (with `team`: " +
        "the team's); `waiting`: queued for a person, longest waiting first",
      example: "waiting",
    }),
  isTest: booleanQuery({
    description: "`true`: only test conversations (the console's try-it); `false`: none of them; absent: both",
    example: "false",
  }),
});
