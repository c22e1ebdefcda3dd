import { z } from "@hono/zod-openapi";
import { booleanQuery } from "../../lib/boolean-query";
import { PageQuery } from "../../lib/pagination";
import { TOOL_TYPES } from "../../services/records/tools";

export const TOOLS_TAG = "Tools";

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
