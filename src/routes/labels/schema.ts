import { z } from "@hono/zod-openapi";
import { PageQuery } from "../../lib/pagination";
import { MAX_CONVERSATION_LABELS } from "../../services/labels";

export const LABELS_TAG = "Labels";
const EXAMPLE_ID = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d";

const name = z
  .string()
  .trim()
  .min(1)
  .max(50)
  .openapi({ description: "1 to 50 characters, unique within the organization (409)", example: "Billing" });
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
