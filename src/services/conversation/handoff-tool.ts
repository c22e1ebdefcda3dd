// The agent's built-in `handoff` tool (CONTRACT section 18): a model in agent mode may hand the
// conversation to a person itself. Calling it marks the reply; the turn then adds the handoff
// message and the reply queues the conversation (handoff.ts, `handoffReply` with reason `tool`).
import type { AgentTool } from "../agent/types";
import type { ToolProvider } from "../agent/registry";
import { handoffSettings } from "./handoff";

export const HANDOFF_TOOL = "handoff";

const handoffTool: AgentTool = {
  name: HANDOFF_TOOL,
  displayName: "Hand off to a person",
  description:
    "Escalate: hand this conversation over to a human colleague, who replies here later. Use it when the " +
    "visitor needs something only staff can do " +
    "(a refund decision, an account change, a complaint) or you cannot help.",
  parameters: {
    type: "object",
    properties: { reason: { type: "string", description: "Why a person is needed, for the colleague" } },
  },
  kind: "handoff",
  toolId: null,
  async run(args) {
    return {
      status: "success",
      output: { handedOff: true, reason: typeof args.reason === "string" ? args.reason.slice(0, 500) : null },
      // The turn adds the assistant's handoff message after the reply (handoffReply): the model need not say it again.
      forModel:
        "The conversation is handed to a colleague; the visitor is told so right after your reply. Answer " +
        "what you can without repeating that.",
      payload: { handoff: true },
    };
  },
};

/** Offered to agent replies of assistants whose handoff is on. */
export const handoffToolProvider: ToolProvider = (ctx) =>
  handoffSettings(ctx.chatbot.handoff).enabled ? [handoffTool] : [];
