import type { Bindings } from "../../env";
import type { models } from "../../db/schema";
import { openAiCompatibleEndpoint } from "../models";
import { DEFAULT_TIMEOUT_MS, openAiCompatibleChatModel } from "./openai-compatible";
import { countSetting, retryPolicy, withRetries } from "./retries";
import { workersAiChatModel } from "./workers-ai";
import { lazy } from "../../lib/lazy";
import {
  ModelError,
  type ChatEvent,
  type ChatModel,
  type ChatRequest,
  type CutReason,
  type ToolCall,
  type Usage,
} from "./types";

export * from "./types";
export { modelApiError } from "./errors";

type ModelRow = typeof models.$inferSelect;

// Loaded on first use: most deployments never ask it, and every isolate would pay its load at start-up.
const localModel = lazy(() => import("./local"));

/** The chat model behind a registered model record (STYLE 6: chosen by record, never by test flags). */
export async function chatModelFor(env: Bindings, row: ModelRow): Promise<ChatModel> {
  switch (row.provider) {
    case "local":
      return (await localModel()).localChatModel;
    case "openai_compatible": {
      const { baseUrl, apiKey } = await openAiCompatibleEndpoint(row, env);
      const timeoutMs = countSetting(env.MODEL_TIMEOUT_MS) || DEFAULT_TIMEOUT_MS;
      return withRetries(
        openAiCompatibleChatModel({ baseUrl, apiKey, model: row.modelName, timeoutMs }),
        retryPolicy(env),
      );
    }
    case "workers_ai":
      return withRetries(workersAiChatModel(env.AI, row.modelName), retryPolicy(env));
    default:
      throw new ModelError(`Provider ${row.provider} is not available.`, 400);
  }
}

/**
 * A provider's answer that says nothing (no text but white space, and no tool call when tools were offered) is a
 * fault of the model's, as a 500 is: the assistant's fallback model answers, else the turn fails as for any fault
 * (the visitor's message kept, the reply failed). Taken as it was, it stored an empty reply, an empty bubble in the
 * widget and a message a platform refuses. Events are held until the answer has said something, so a fallback can
 * still take its place. docs/decisions.md, "An answer that says nothing".
 */
export function answering(model: ChatModel): ChatModel {
  return {
    async *stream(request) {
      // A call of a tool not offered is the agent loop's to answer ("no such tool") when tools were; without tools
      // nothing reads it.
      const tools = Boolean(request.tools?.length);
      const held: ChatEvent[] = [];
      let said = false;
      for await (const event of model.stream(request) as AsyncIterable<ChatEvent>) {
        said ||= (event.type === "delta" && event.text.trim() !== "") || (event.type === "tool_call" && tools);
        if (!said) held.push(event);
        else {
          yield* held.splice(0);
          yield event;
        }
      }
      if (said || request.signal?.aborted) return;
      throw new ModelError("The model provider's answer said nothing (no text, no tool call).", 502);
    },
  };
}

/** Runs a chat to the end and returns its text, the tool calls it asked for, usage, and why it was cut (if it was). */
export async function complete(
  model: ChatModel,
  request: ChatRequest,
): Promise<{ content: string; toolCalls: ToolCall[]; usage: Usage | null; cut?: CutReason }> {
  let content = "";
  const toolCalls: ToolCall[] = [];
  let usage: Usage | null = null;
  let cut: CutReason | undefined;
  for await (const event of model.stream(request) as AsyncIterable<ChatEvent>) {
    if (event.type === "delta") content += event.text;
    else if (event.type === "tool_call") toolCalls.push({ id: event.id, name: event.name, arguments: event.arguments });
    else if (event.type === "usage") usage = event.usage;
    else cut = event.reason;
  }
  return { content, toolCalls, usage, ...(cut && { cut }) };
}
