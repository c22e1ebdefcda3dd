import { z } from "@hono/zod-openapi";
import { TOOL_EXECUTION_STATUSES, TOOL_TYPES } from "../../db/schema";
import { Timestamp } from "../../lib/openapi";
import { ms } from "../../lib/time";
import type { ToolExecutionRow } from "../tools/execution-records";

// The route schemas take these enums from here (routes do not import db/schema).
export { TOOL_EXECUTION_STATUSES, TOOL_TYPES };

const EXAMPLE_ID = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d";

export const ToolExecutionRecordSchema = z
  .object({
    id: z.string().openapi({ description: "The record's id", example: EXAMPLE_ID }),
    chatbot: z
      .object({
        id: z
          .string()
          .nullable()
          .openapi({ description: "The assistant's id; null once it is deleted", example: EXAMPLE_ID }),
        name: z.string().openapi({ description: "The assistant's name at the call", example: "Support assistant" }),
      })
      .openapi({ description: "The assistant that called" }),
    tool: z
      .object({
        id: z
          .string()
          .nullable()
          .openapi({ description: "null for built-in tools such as knowledge search", example: EXAMPLE_ID }),
        name: z.string().openapi({ description: "The function name the model called", example: "get_weather" }),
        displayName: z.string().openapi({ description: "The tool's name shown to users", example: "Weather" }),
        toolType: z.string().openapi({
          description:
            "api, function, mcp, desktop, flex, quick_reply; knowledge (the built-in search), skill " +
            "(use_skill, read_skill_resource) or sql (query_database)",
          example: "api",
        }),
      })
      .openapi({ description: "The tool called" }),
    conversation: z
      .string()
      .nullable()
      .openapi({ description: "The conversation of the reply; null when it has none", example: EXAMPLE_ID }),
    message: z.string().nullable().openapi({ description: "The assistant message of the reply", example: EXAMPLE_ID }),
    status: z.enum(TOOL_EXECUTION_STATUSES).openapi({
      description: "success; failure (see error); timeout; pending (a desktop tool awaiting its result)",
      example: "success",
    }),
    input: z
      .record(z.string(), z.unknown())
      .openapi({ description: "Arguments the model gave", example: { city: "Paris" } }),
    output: z
      .unknown()
      .openapi({ description: "What the tool returned (string or object)", example: { temperature: 21 } }),
    error: z
      .string()
      .nullable()
      .openapi({ description: "Why the call failed or timed out; null otherwise", example: null }),
    durationMs: z.number().int().nullable().openapi({
      description: "Milliseconds the call took (a desktop tool: until its result came); null when not measured",
      example: 42,
    }),
    createdAt: Timestamp,
  })
  .openapi("ToolExecutionRecord");

/** CONTRACT section 11: one tool call of an agent reply. */
export type ToolExecutionRecord = z.infer<typeof ToolExecutionRecordSchema>;

export const toolExecutionRecord = (r: ToolExecutionRow): ToolExecutionRecord => ({
  id: r.id,
  chatbot: { id: r.chatbotId, name: r.chatbotName },
  tool: { id: r.toolId, name: r.toolName, displayName: r.toolDisplayName, toolType: r.toolType },
  conversation: r.conversationId,
  message: r.messageId,
  status: r.status,
  input: r.input,
  output: r.output ?? null,
  error: r.error,
  durationMs: r.durationMs,
  createdAt: ms(r.createdAt)!,
});
