import { z } from "@hono/zod-openapi";
import { HTTP_METHODS, TOOL_TYPES } from "../../db/schema";
import { IdName, Timestamps } from "../../lib/openapi";
import { ms } from "../../lib/time";
import type { ToolView } from "../tools/views";

// The route schemas take these enums from here (routes do not import db/schema).
export { HTTP_METHODS, TOOL_TYPES };

const EXAMPLE_ID = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d";
const object = () => z.record(z.string(), z.unknown());
export const PARAMETERS_EXAMPLE = {
  type: "object",
  properties: { city: { type: "string", description: "City name" } },
  required: ["city"],
};

export const ToolSchema = z
  .object({
    id: z.string().openapi({ description: "The tool's id", example: EXAMPLE_ID }),
    name: z
      .string()
      .nullable()
      .openapi({ description: "Function name the model calls (null for MCP tools)", example: "get_weather" }),
    displayName: z.string().openapi({ description: "Name shown to users", example: "Weather" }),
    description: z.string().openapi({ description: "Shown to users", example: "Current weather of a city" }),
    prompt: z
      .string()
      .openapi({ description: "What the model is told about the tool; empty: the description", example: "" }),
    toolType: z.enum(TOOL_TYPES).openapi({
      description:
        "api (an HTTP call), function (JavaScript), mcp (a remote MCP server's tools), desktop (run by the " +
        "client), flex (a flex message the model fills) or quick_reply (reply buttons)",
      example: "api",
    }),
    apiUrl: z
      .string()
      .nullable()
      .openapi({ description: "api tools: the URL called", example: "https://api.example.com/weather" }),
    httpMethod: z.enum(HTTP_METHODS).nullable().openapi({ description: "api tools: the method", example: "get" }),
    rawHeaders: object()
      .nullable()
      .openapi({ description: "api tools: headers sent with each call", example: { "X-Api-Key": "..." } }),
    rawParametersSchema: object()
      .nullable()
      .openapi({ description: "JSON Schema of the arguments the model fills", example: PARAMETERS_EXAMPLE }),
    mcpAllowedTools: z
      .unknown()
      .nullable()
      .openapi({ description: "mcp tools: which remote tools the model sees", example: null }),
    functionCode: z
      .string()
      .nullable()
      .openapi({ description: "function tools: JavaScript defining main(args)", example: null }),
    mcpUrl: z.string().nullable().openapi({ description: "mcp tools: the server URL", example: null }),
    rawMcpHeader: object().nullable().openapi({ description: "mcp tools: default headers", example: null }),
    flexTemplateJson: object()
      .nullable()
      .openapi({ description: "flex tools: the flex message with {{placeholders}}", example: null }),
    flexSchema: object()
      .nullable()
      .openapi({ description: "flex tools: field path to the prompt the model answers", example: null }),
    quickReplyConfig: object()
      .nullable()
      .openapi({ description: "quick_reply tools: {mode: static|dynamic, items}", example: null }),
    groups: z.array(IdName).openapi({ description: "Groups whose members may see and use it" }),
    organization: z
      .string()
      .nullable()
      .openapi({ description: "Owning organization; null for a global tool", example: EXAMPLE_ID }),
    createdBy: z.union([IdName, z.null()]).openapi({ description: "The user who created it" }),
    isGlobal: z.boolean().openapi({ description: "Offered to every organization by the platform", example: false }),
    canUpdate: z.boolean().openapi({
      description: "Whether the caller may change it (tool.manage; global tools: platform staff only)",
      example: true,
    }),
    canDelete: z.boolean().openapi({
      description: "Whether the caller may delete it (tool.manage; global tools: platform staff only)",
      example: true,
    }),
    ...Timestamps,
  })
  .openapi("Tool");

/** The tool record: the spec's tool fields plus id, organization, createdBy, isGlobal, timestamps and the caller's
 * rights. */
export type ToolRecord = z.infer<typeof ToolSchema>;

export const toolRecord = (v: ToolView): ToolRecord => ({
  id: v.row.id,
  name: v.row.name,
  displayName: v.row.displayName,
  description: v.row.description,
  prompt: v.row.prompt,
  toolType: v.row.toolType,
  apiUrl: v.row.apiUrl,
  httpMethod: v.row.httpMethod,
  rawHeaders: v.row.rawHeaders,
  rawParametersSchema: v.row.rawParametersSchema,
  mcpAllowedTools: v.row.mcpAllowedTools ?? null,
  functionCode: v.row.functionCode,
  mcpUrl: v.row.mcpUrl,
  rawMcpHeader: v.row.rawMcpHeader,
  flexTemplateJson: v.row.flexTemplateJson,
  flexSchema: v.row.flexSchema,
  quickReplyConfig: v.row.quickReplyConfig,
  groups: v.groups,
  organization: v.row.organizationId,
  createdBy: v.createdBy,
  isGlobal: v.row.organizationId === null,
  canUpdate: v.canManage,
  canDelete: v.canManage,
  createdAt: ms(v.row.createdAt)!,
  updatedAt: ms(v.row.updatedAt)!,
});
