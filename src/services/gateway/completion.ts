// The gateway's request as a provider-neutral chat request, and its answer as OpenAI's chat
// completion object or chunks.
import { ApiError } from "../../lib/errors";
import { countWords } from "../llm/text";
import {
  modelApiError,
  type ChatMessage,
  type ChatModel,
  type ChatRequest,
  type CutReason,
  type ToolCall,
  type Usage,
} from "../llm";
import { withOpenAiError } from "../../lib/openai-errors";
import { eventText } from "../sse";
import type { ChatCompletionInput, ChatCompletionRecord } from "./schema";

/** What identifies one answer in every chunk: `chatcmpl-<uuid>`, unix seconds, the model's name. */
export interface CompletionHead {
  id: string;
  created: number;
  model: string;
}

export const completionHead = (model: string): CompletionHead => ({
  id: `chatcmpl-${crypto.randomUUID()}`,
  created: Math.floor(Date.now() / 1000),
  model,
});

/** The gateway request as the provider-neutral ChatRequest. */
export function chatRequest(body: ChatCompletionInput, signal: AbortSignal): ChatRequest {
  const messages: ChatMessage[] = body.messages.map((m) => ({
    role: m.role === "developer" ? "system" : m.role,
    content: typeof m.content === "string" ? m.content : m.content.map((p) => p.text).join("\n"),
  }));
  const format = body.responseFormat;
  const jsonSchema =
    format?.type === "json_schema"
      ? format.jsonSchema.schema
      : format?.type === "json_object"
        ? { type: "object" }
        : undefined;
  return {
    messages,
    jsonSchema,
    maxTokens: body.maxCompletionTokens ?? body.maxTokens ?? undefined,
    temperature: body.temperature ?? undefined,
    tools: body.tools?.length ? body.tools : undefined,
    signal,
  };
}

/** The provider's usage, else our own count in words (the local model's unit). */
export function usageOf(usage: Usage | null, request: ChatRequest, output: string) {
  if (usage)
    return {
      prompt_tokens: usage.promptTokens,
      completion_tokens: usage.completionTokens,
      total_tokens: usage.totalTokens,
    };
  const prompt = request.messages.reduce((n, m) => n + countWords(m.content), 0);
  const completion = countWords(output);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

/** Words billed for an answer: its text and the arguments of the calls it made. */
export const answerWords = (content: string, toolCalls: ToolCall[]) =>
  countWords(content) + toolCalls.reduce((n, t) => n + countWords(t.arguments), 0);

const toolCallRecord = (t: ToolCall) => ({
  id: t.id,
  type: "function" as const,
  function: { name: t.name, arguments: t.arguments },
});

/** OpenAI's finish reason: the provider's when it cut the answer (max_tokens, its filter), else what it holds. */
const finishReason = (cut: CutReason | undefined, toolCalls: ToolCall[]) =>
  cut ?? (toolCalls.length ? "tool_calls" : "stop");

export function completionRecord(
  head: CompletionHead,
  answer: { content: string; toolCalls: ToolCall[]; cut?: CutReason },
  usage: ReturnType<typeof usageOf>,
): ChatCompletionRecord {
  const { content, toolCalls } = answer;
  const calls = toolCalls.length > 0;
  return {
    ...head,
    object: "chat.completion",
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: calls && !content ? null : content,
          ...(calls ? { tool_calls: toolCalls.map(toolCallRecord) } : {}),
        },
        finish_reason: finishReason(answer.cut, toolCalls),
      },
    ],
    usage,
  };
}

/**
 * Streams the answer as OpenAI chunks through `send`, one chunk per delta as the model yields it.
 * Failures become an `event: error`. Resolves with what was answered and the provider's usage, for usage accounting.
 */
export async function streamChunks(
  model: ChatModel,
  request: ChatRequest,
  head: CompletionHead,
  includeUsage: boolean,
  send: (text: string) => void,
  onUnexpected: (err: unknown) => ApiError,
): Promise<{ content: string; toolCalls: ToolCall[]; usage: Usage | null }> {
  const event = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    send(`data: ${JSON.stringify({ ...head, object: "chat.completion.chunk", choices, ...extra })}\n\n`);
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    event([{ index: 0, delta, finish_reason: finish }]);
  let content = "";
  const toolCalls: ToolCall[] = [];
  let usage: Usage | null = null;
  let cut: CutReason | undefined;
  let first = true;
  const role = () => (first ? ((first = false), { role: "assistant" }) : {});
  try {
    for await (const e of model.stream(request)) {
      if (e.type === "delta") {
        content += e.text;
        chunk({ ...role(), content: e.text });
      } else if (e.type === "tool_call") {
        const call = { id: e.id, name: e.name, arguments: e.arguments };
        chunk({ ...role(), tool_calls: [{ index: toolCalls.length, ...toolCallRecord(call) }] });
        toolCalls.push(call);
      } else if (e.type === "usage") usage = e.usage;
      else cut = e.reason;
    }
    if (request.signal?.aborted) return { content, toolCalls, usage };
    chunk(first ? { role: "assistant", content: "" } : {}, finishReason(cut, toolCalls));
    if (includeUsage) event([], { usage: usageOf(usage, request, content) });
    send("data: [DONE]\n\n");
  } catch (err) {
    const known = modelApiError(err);
    const apiError = known instanceof ApiError ? known : onUnexpected(err);
    send(eventText(withOpenAiError(apiError.status, { detail: apiError.detail, code: apiError.code }), "error"));
  }
  return { content, toolCalls, usage };
}
