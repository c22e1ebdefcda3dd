import { z } from "@hono/zod-openapi";
import { uuidParam } from "../../../lib/openapi";
import { PageQuery } from "../../../lib/pagination";
import { GroupPkParams } from "../group-members/schema";

const EXAMPLE_ID = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d";

export { GroupPkParams };
export const GroupChatbotParams = GroupPkParams.extend({ id: uuidParam("id", "Group assistant (link) id") });

export const BulkCreateGroupChatbots = z
  .object({
    chatbots: z
      .array(z.string().openapi({ example: EXAMPLE_ID }))
      .min(1)
      .max(1000)
      .openapi({
        description: "Assistant ids of the organization; assistants already in the group are skipped",
        example: [EXAMPLE_ID],
      }),
  })
  .openapi("BulkCreateGroupChatbots");

export const GroupChatbotListQuery = PageQuery.extend({
  query: z
    .string()
    .max(200)
    .optional()
    .openapi({ description: "Assistant name contains (case-insensitive)", example: "support" }),
});
