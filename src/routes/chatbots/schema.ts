import { z } from "@hono/zod-openapi";
import { PageQuery } from "../../lib/pagination";
import { REPLY_MODES } from "../../services/records/chatbots";

export const CHATBOTS_TAG = "Assistants";

export const ChatbotListQuery = PageQuery.extend({
  query: z
    .string()
    .max(200)
    .optional()
    .openapi({ description: "Name contains (case-insensitive)", example: "support" }),
  replyMode: z
    .enum(REPLY_MODES)
    .optional()
    .openapi({ description: "Only assistants in this reply mode", example: "normal" }),
});

export const EnableEvaluationBody = z
  .object({
    enableEvaluation: z.boolean().optional().openapi({ description: "Absent (or no body) means true", example: true }),
  })
  .openapi("AssistantEnableEvaluation");
