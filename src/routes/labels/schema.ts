import { z } from "@hono/zod-openapi";
import { PageQuery } from "../../lib/pagination";
import { MAX_CONVERSATION_LABELS } from "../../services/labels";

export const LABELS_TAG = "Labels";
const EXAMPLE_ID = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d";

export const LabelListQuery = PageQuery.extend({
  search: z.string().max(200).optional().openapi({ description: "Name contains (case-insensitive)", example: "bill" }),
});

export const ConversationLabelsWrite = z
  .object({
    labelIds: z
      .array(z.uuid().openapi({ example: EXAMPLE_ID }))
      .max(MAX_CONVERSATION_LABELS)
      .openapi({
        description:
          `The conversation's labels from now on (at most ${MAX_CONVERSATION_LABELS}; ` + "empty removes them all)",
        example: [EXAMPLE_ID],
      }),
  })
  .openapi("ConversationLabelsWrite");
