import type { ToolCallTrace } from "../../src/services/agent/types";

/** A tool call as a completion's contentPayload.toolCalls shows it (src/services/agent/reply.ts, callView). */
export type ToolCall = Omit<ToolCallTrace, "toolId">;
