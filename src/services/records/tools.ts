import { z } from "@hono/zod-openapi";
import { HTTP_METHODS, TOOL_TYPES } from "../../db/schema";
import { GroupRefs, IdName, NameField, Timestamps } from "../../lib/openapi";
import { ms } from "../../lib/time";
import type { ToolView } from "../tools/views";
import { maskedHeaders } from "../../lib/masked-headers";

// The route schemas take this enum from here (routes do not import db/schema).
export { TOOL_TYPES };

const EXAMPLE_ID = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d";
const object = () => z.record(z.string(), z.unknown());
const PARAMETERS_EXAMPLE = {
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
      .openapi({
        description: "api tools: headers sent with each call, values masked (write-only)",
        example: { "X-Api-Key": "…f3a9" },
      }),
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
    rawMcpHeader: object()
      .nullable()
      .openapi({
        description: "mcp tools: default headers, values masked (write-only)",
        example: { Authorization: "…f3a9" },
      }),
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
  rawHeaders: maskedHeaders(v.row.rawHeaders),
  rawParametersSchema: v.row.rawParametersSchema,
  mcpAllowedTools: v.row.mcpAllowedTools ?? null,
  functionCode: v.row.functionCode,
  mcpUrl: v.row.mcpUrl,
  rawMcpHeader: maskedHeaders(v.row.rawMcpHeader),
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

// Request bodies, beside the record (docs/decisions.md, "One word per concept, and where a record's shape is
// written").
const str = (max: number, description: string, example: string | null) =>
  z.string().max(max).nullable().optional().openapi({ description, example });

const fields = {
  name: z.string().max(64).nullable().optional().openapi({
    description:
      "Letters, digits, underscore and hyphen, 1 to 64; unique in the organization; required except for MCP tools",
    example: "get_weather",
  }),
  displayName: NameField("Name shown to users", "Weather"),
  description: str(10_000, "Shown to users", "Current weather of a city"),
  prompt: str(10_000, "What the model is told about the tool; empty: the description", ""),
  toolType: z
    .enum(TOOL_TYPES)
    .openapi({ description: "api, function, mcp, desktop, flex or quick_reply", example: "api" }),
  apiUrl: str(
    2000,
    "api tools (required): http(s) URL, checked by the outbound address guard; query parameters in it are fixed " +
      "(GET and DELETE send the model's arguments beside them, one of the same name dropped)",
    "https://api.example.com/weather",
  ),
  httpMethod: z
    .enum(HTTP_METHODS)
    .nullable()
    .optional()
    .openapi({
      description:
        "api tools (required): get, post, put, delete or patch. With get and delete the arguments are the " +
        "query string (a value that is not a string as JSON), otherwise the JSON body",
      example: "get",
    }),
  rawHeaders: object()
    .nullable()
    .optional()
    .openapi({
      description:
        "api tools: headers (string values), not sent past a redirect to another host. Write-only: records show " +
        "the values masked, and a masked value sent back keeps the stored one",
      example: { "X-Api-Key": "secret" },
    }),
  rawParametersSchema: object()
    .nullable()
    .optional()
    .openapi({ description: "JSON Schema (type object) of the arguments", example: PARAMETERS_EXAMPLE }),
  mcpAllowedTools: z
    .unknown()
    .optional()
    .openapi({ description: "mcp tools: remote tool names the model may see", example: null }),
  functionCode: str(
    100_000,
    "function tools (required): JavaScript defining main(args), sync or async; what it returns (as JSON) is " +
      "the result, null when it returns nothing. Without main, the script's last expression, with `args` global",
    "function main(args) { return args.a + args.b; }",
  ),
  mcpUrl: str(2000, "mcp tools (required): server URL", null),
  rawMcpHeader: object()
    .nullable()
    .optional()
    .openapi({
      description:
        "mcp tools: default headers (string values). Write-only: records show the values masked, and a masked " +
        "value sent back keeps the stored one",
      example: null,
    }),
  flexTemplateJson: object()
    .nullable()
    .optional()
    .openapi({ description: "flex tools (required): the flex message JSON with {{path}} placeholders", example: null }),
  flexSchema: object()
    .nullable()
    .optional()
    .openapi({ description: "flex tools: placeholder path to its prompt (string or {prompt, tag})", example: null }),
  quickReplyConfig: object().nullable().optional().openapi({
    description:
      "quick_reply tools (required): {mode: static, items: [label | {label, text}]} or {mode: dynamic, maxItems}",
    example: null,
  }),
  groups: GroupRefs("Groups (`[{id}]`); non-owners must pick at least one of their own"),
  isGlobal: z
    .boolean()
    .optional()
    .openapi({ description: "Create a global tool (platform staff only)", example: false }),
};

export const ToolWrite = z.object(fields).openapi("ToolWrite");
export const ToolPatch = ToolWrite.partial().openapi("ToolPatch");
