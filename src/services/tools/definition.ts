import type { ToolRow } from "./access";

const EMPTY = { type: "object", properties: {} };

/** The model-facing description: `prompt`, else `description`, else the display name. */
export const toolDescription = (row: Pick<ToolRow, "prompt" | "description" | "displayName">) =>
  (row.prompt.trim() || row.description.trim() || row.displayName).slice(0, 1024);

/** The arguments schema given to the model: `rawParametersSchema`, always an object schema. */
export function parametersOf(row: Pick<ToolRow, "rawParametersSchema">): Record<string, unknown> {
  const schema = row.rawParametersSchema;
  if (!schema || !Object.keys(schema).length) return EMPTY;
  return { ...schema, type: "object", properties: schema.properties ?? {} };
}
