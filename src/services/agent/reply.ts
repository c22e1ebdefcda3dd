import type { Bindings, Db } from "../../env";
import type { ChatMessage, ChatRequest } from "../llm";
import { replyModel } from "../llm/fallback";
import type { ReplyInput, Reply } from "../conversation/replies";
import { citationNode, citedFiles } from "../knowledge/retrieval";
import { DEFAULT_MAX_TOOL_CALLS, runAgentLoop } from "./loop";
import { withOutputsWithin } from "./output-size";
import { ToolRecorder } from "./recorder";
import { toolsForReply } from "./registry";
import { withTextProtocol, nativeToolCalling } from "./text-protocol";
import { replyToolContext, type ToolCallTrace, type ToolContext } from "./types";
import { toolTurns } from "./history";
import { attachmentParts } from "../uploads/reading";
import type { messages } from "../../db/schema";

type MessageRow = typeof messages.$inferSelect;

/** What the conversation passes to an agent reply besides the reply input. */
export interface AgentOptions extends Pick<ChatRequest, "signal" | "onResponse" | "whole"> {
  /** The id the reply message will have (records point at it). */
  replyId?: string;
  /** `tool_call` and `tool_result` events for the stream. */
  onEvent?: (event: "tool_call" | "tool_result", data: Record<string, unknown>) => void;
}

/** A reply that continues an earlier one whose desktop tool calls now have results. */
export interface AgentReplyInput extends ReplyInput {
  continues?: MessageRow;
}

const AGENT_INSTRUCTIONS =
  "You can call tools. Call one when it helps answer; use what it returns; answer the user in their language " +
  "once you have what you need.";

/**
 * An agent reply (reply mode `agent`): the tool-calling loop over the assistant's tools, the
 * knowledge search among them. Text deltas stream as the model writes; tool calls and results are
 * events; the message carries them in contentPayload.toolCalls (and flex messages, quick replies,
 * calls left to a desktop client).
 */
export async function agentReply(
  env: Bindings,
  db: Db,
  input: ReplyInput,
  emit: (text: string) => void,
  options: AgentOptions = {},
): Promise<Reply> {
  const { chatbot, incoming } = input;
  // Each model that answers (the fallback's too) gets the tool protocol it understands.
  const model = replyModel(env, db, input.model, chatbot.fallbackLargeLanguageModelId, (row, m) =>
    nativeToolCalling(row) ? m : withTextProtocol(m),
  );
  const ctx: ToolContext = {
    ...replyToolContext(env, db, input, options.signal),
    conversation: input.conversation
      ? { contactId: input.conversation.contactId, createdById: input.conversation.createdById }
      : undefined,
    cleanups: [],
  };
  const metadata = (incoming.metadata ?? {}) as Record<string, unknown>;
  const clientPlatform =
    typeof metadata.clientPlatform === "string"
      ? metadata.clientPlatform
      : typeof metadata.client_platform === "string"
        ? metadata.client_platform
        : null;
  const [tools, attachments] = await Promise.all([
    toolsForReply(ctx, { toolIds: incoming.toolIds, clientPlatform }),
    // Files of the conversation, as a normal reply reads them (documents as text, images as parts).
    attachmentParts(env, incoming, input.history, input.waitForAttachments ?? true),
  ]);
  const conversationId = incoming.conversationId;
  const recorder = new ToolRecorder(input.unrecorded ? null : (input.data ?? db), {
    organizationId: incoming.organizationId,
    chatbotId: chatbot.id,
    chatbotName: chatbot.name,
    conversationId,
    messageId: options.replyId ?? null,
    messageText: incoming.content,
  });
  const event = (t: ToolCallTrace, kind: "tool_call" | "tool_result") =>
    options.onEvent?.(kind, {
      conversationId,
      messageId: options.replyId ?? null,
      ...callView(t, kind === "tool_result"),
    });
  const forced = incoming.toolIds?.length
    ? tools.find((t) => t.toolId && incoming.toolIds!.includes(t.toolId))
    : undefined;
  let responded = false;
  const result = await runAgentLoop({
    model,
    request: {
      messages: await agentPrompt(input.data ?? db, input, (input as AgentReplyInput).continues),
      attachments,
      signal: options.signal,
      onResponse: () => {
        if (!responded) options.onResponse?.();
        responded = true;
      },
    },
    tools,
    ctx,
    recorder,
    maxCalls: Number(env.AGENT_MAX_TOOL_CALLS) || DEFAULT_MAX_TOOL_CALLS,
    firstChoice: forced && !(input as AgentReplyInput).continues ? { name: forced.name } : undefined,
    events: {
      text: emit,
      toolCall: (t) => {
        options.onResponse?.();
        event(t, "tool_call");
      },
      toolResult: (t) => event(t, "tool_result"),
    },
  }).finally(() => Promise.allSettled(ctx.cleanups!.map((close) => close())));
  await recorder.flush();
  const contentPayload: Record<string, unknown> = {
    toolCalls: withOutputsWithin(result.calls.map((t) => callView(t, true))),
  };
  if (result.payload.flex) contentPayload.flex = result.payload.flex;
  if (result.payload.quickReplies) contentPayload.quickReplies = result.payload.quickReplies;
  if (result.pending.length) contentPayload.pendingToolCalls = result.pending.map((t) => t.id);
  return {
    ...(result.payload.handoff ? { handsOff: true } : {}),
    content: result.content,
    citations: citedFiles(ctx.passages),
    citationNodes: ctx.passages.map(citationNode),
    usage: result.usage,
    contentPayload,
    modelId: model.fallbackAnswered(),
  };
}

/** A call as events and contentPayload.toolCalls show it (`id` is the execution record's). */
export function callView(t: ToolCallTrace, withResult: boolean): Record<string, unknown> {
  const view: Record<string, unknown> = {
    id: t.id,
    callId: t.callId,
    name: t.name,
    displayName: t.displayName,
    toolType: t.toolType,
    input: t.input,
  };
  if (withResult) Object.assign(view, { status: t.status, output: t.output, error: t.error, durationMs: t.durationMs });
  return view;
}

/** The prompt: instructions, the history with the tool turns of earlier agent replies, the message, and (resuming) the
 * reply so far. */
async function agentPrompt(
  db: Db,
  { chatbot, history, incoming }: ReplyInput,
  continues?: MessageRow,
): Promise<ChatMessage[]> {
  const system = [chatbot.instructions.trim(), AGENT_INSTRUCTIONS].filter(Boolean).join("\n\n");
  const turns = await Promise.all(
    history.map(async (m): Promise<ChatMessage[]> => {
      if (m.type === "incoming") return [{ role: "user", content: m.content }];
      const tools = m.senderType === "chatbot" ? await toolTurns(db, m) : [];
      return [...tools, ...(m.content || !tools.length ? [{ role: "assistant" as const, content: m.content }] : [])];
    }),
  );
  const resumed = continues ? await toolTurns(db, continues) : [];
  return [
    { role: "system", content: system },
    ...turns.flat(),
    { role: "user", content: incoming.content },
    ...resumed,
  ];
}
