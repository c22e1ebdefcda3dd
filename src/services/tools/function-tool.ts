import type { ToolRow } from "./access";
import type { AgentTool } from "../agent/types";
import { parametersOf, toolDescription } from "./definition";
import { runFunctionTool } from "./isolate";
import { DEFAULT_FUNCTION_TIMEOUT_MS } from "./sandbox";

/** A function tool: `functionCode` run by QuickJS (sandbox.ts) in an isolate (isolate.ts) with the call's arguments. */
export function functionTool(row: ToolRow): AgentTool {
  return {
    name: row.name!,
    description: toolDescription(row),
    parameters: parametersOf(row),
    displayName: row.displayName,
    kind: "function",
    toolId: row.id,
    hints: `${row.name} ${row.displayName} ${row.description}`,
    async run(args, ctx) {
      const timeoutMs = Number(ctx.env.FUNCTION_TOOL_TIMEOUT_MS) || DEFAULT_FUNCTION_TIMEOUT_MS;
      const out = await runFunctionTool(ctx.env, ctx.organizationId, row.functionCode ?? "", args, timeoutMs);
      if (out.status === "success") return { status: "success", output: out.output };
      return { status: out.status, error: out.error, output: out.logs.length ? { logs: out.logs } : undefined };
    },
  };
}
