import { ms } from "../../lib/time";
import type { ToolExecutionRow } from "../tools/execution-records";

/** CONTRACT section 11: one tool call of an agent reply. */
export interface ToolExecutionRecord {
  id: string;
  chatbot: { id: string | null; name: string };
  tool: { id: string | null; name: string; displayName: string; toolType: string };
  conversation: string | null;
  message: string | null;
  status: ToolExecutionRow["status"];
  input: Record<string, unknown>;
  output: unknown;
  error: string | null;
  durationMs: number | null;
  createdAt: string;
}

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
