import { z } from "@hono/zod-openapi";
import { dayQuery, uuidParam } from "../../lib/openapi";
import { PageQuery } from "../../lib/pagination";
import { TOOL_EXECUTION_STATUSES, TOOL_TYPES } from "../../services/records/tool-execution-records";

export const RECORDS_TAG = "Tool execution records";
const EXAMPLE_ID = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d";

export const RecordListQuery = PageQuery.extend({
  chatbot: z.uuid().optional().openapi({ description: "Only calls by this assistant", example: EXAMPLE_ID }),
  tool: z.uuid().optional().openapi({ description: "Only calls of this tool", example: EXAMPLE_ID }),
  toolType: z
    .enum([...TOOL_TYPES, "knowledge", "skill", "sql"])
    .optional()
    .openapi({ description: "Only tools of this type", example: "api" }),
  status: z
    .enum(TOOL_EXECUTION_STATUSES)
    .optional()
    .openapi({ description: "success, failure, pending or timeout", example: "failure" }),
  query: z
    .string()
    .max(200)
    .optional()
    .openapi({ description: "Assistant name, tool name or message text contains", example: "weather" }),
  startDate: dayQuery("From this day (UTC, inclusive)"),
  endDate: dayQuery("To this day (UTC, inclusive)"),
});

export const ChatbotOption = z
  .object({
    id: z.string().openapi({ description: "The assistant's id", example: EXAMPLE_ID }),
    name: z.string().openapi({ description: "The assistant's name", example: "Support assistant" }),
  })
  .openapi("ToolRecordChatbotOption");
export const ToolOption = z
  .object({
    id: z.string().openapi({ description: "The tool's id", example: EXAMPLE_ID }),
    name: z.string().openapi({ description: "The function name the model calls", example: "get_weather" }),
    displayName: z.string().openapi({ description: "The tool's name shown to users", example: "Weather" }),
    toolType: z.string().openapi({ description: "The tool's type (api, function, mcp, ...)", example: "api" }),
  })
  .openapi("ToolRecordToolOption");

export const ToolPkParams = z.object({ toolPk: uuidParam("toolPk", "Tool id") });
export const ToolPkIdParams = z.object({ toolPk: uuidParam("toolPk", "Tool id"), id: uuidParam("id", "Record id") });

export const DesktopResultBody = z
  .object({
    output: z
      .unknown()
      .optional()
      .openapi({ description: "What the desktop tool returned (string or object)", example: { files: 3 } }),
    error: z
      .string()
      .max(10_000)
      .nullable()
      .optional()
      .openapi({ description: "Set when the tool failed", example: null }),
    status: z
      .enum(["success", "failure", "timeout"])
      .optional()
      .openapi({ description: "Default: failure when error is set, else success", example: "success" }),
  })
  .openapi("DesktopToolResult");
