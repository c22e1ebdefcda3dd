import type { ToolCallTrace } from "../../src/services/agent/types";
import type { Actor } from "../harness";
import { createChatbot } from "../fixtures/chatbots";

/** A tool call as a completion's contentPayload.toolCalls shows it (src/services/agent/reply.ts, callView). */
export type ToolCall = Omit<ToolCallTrace, "toolId">;

/**
 * An assistant of `actor`'s (createChatbot's) that answers as an agent with `tools`, on `model` when given (else the
 * built-in model); `fields`: more of the assistant's fields.
 */
export const agentWith = (
  actor: Actor,
  tools: { id: string }[],
  model?: { id: string },
  fields: Record<string, unknown> = {},
) =>
  createChatbot(actor, {
    ...(model && { largeLanguageModel: model.id }),
    replyMode: "agent",
    tools: tools.map((t) => ({ id: t.id })),
    ...fields,
  });
