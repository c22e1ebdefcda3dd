import { z } from "@hono/zod-openapi";
import { booleanQuery } from "../../lib/boolean-query";
import { GroupRefs, NameField } from "../../lib/openapi";
import { PageQuery } from "../../lib/pagination";
import { HTTP_METHODS, PARAMETERS_EXAMPLE as PARAMETERS, TOOL_TYPES } from "../../services/records/tools";

export const TOOLS_TAG = "Tools";
const object = () => z.record(z.string(), z.unknown());

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
    "api tools (required): http(s) URL, checked by the outbound address guard",
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
      description: "api tools: headers (string values), not sent past a redirect to another host",
      example: { "X-Api-Key": "secret" },
    }),
  rawParametersSchema: object()
    .nullable()
    .optional()
    .openapi({ description: "JSON Schema (type object) of the arguments", example: PARAMETERS }),
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
  rawMcpHeader: object().nullable().optional().openapi({ description: "mcp tools: default headers", example: null }),
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

const flag = (description: string) => booleanQuery({ description, example: "false" });

export const ToolListQuery = PageQuery.extend({
  clientPlatform: z
    .string()
    .max(50)
    .optional()
    .openapi({ description: "`desktop` includes desktop tools; otherwise they are left out", example: "desktop" }),
  isGlobal: flag("true: global tools; otherwise the organization's tools"),
  toolType: z.enum(TOOL_TYPES).optional().openapi({ description: "Only tools of this type", example: "api" }),
  query: z.string().max(200).optional().openapi({ description: "Name or display name contains", example: "weather" }),
});
