import type { ToolRow } from "./access";
import type { AgentTool } from "../agent/types";
import { parametersOf, toolDescription } from "./definition";

/**
 * A desktop tool runs on the user's desktop client: the call ends the reply as a pending record
 * (contentPayload.pendingToolCalls); the client posts the result to
 * `tool-execution-records/{id}/result/` and the reply continues from there.
 */
export function desktopTool(row: ToolRow): AgentTool {
  return {
    name: row.name!,
    description: toolDescription(row),
    parameters: parametersOf(row),
    displayName: row.displayName,
    kind: "desktop",
    toolId: row.id,
    hints: `${row.name} ${row.displayName} ${row.description}`,
    run: async () => ({ status: "pending" }),
  };
}
