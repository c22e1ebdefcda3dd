import { mapUsage } from "./openai-compatible";
import { promptMessages } from "./prompt";
import { parseSse } from "./sse";
import { ModelError, type ChatEvent, type ChatMessage, type ChatModel, type ChatRequest, type Usage } from "./types";

/**
 * The part of the AI binding used here; its generated types list every model, which we do not need.
 * `lastRequestHttpStatusCode` is the status of the binding's last answer (set by newer runtimes).
 */
interface AiRunner {
  run(model: string, inputs: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<unknown>;
  lastRequestHttpStatusCode?: number | null;
}

/** Workers AI's "Capacity temporarily exceeded" (a 429 asking to try again). */
const OUT_OF_CAPACITY = 3040;
/** "You have used up your daily free allocation": a 429 that no retry within a turn can outlast. */
const ACCOUNT_LIMITED = 3036;

/**
 * A binding failure as a ModelError, marked retryable as the OpenAI-compatible provider marks its
 * own (withRetries): a 429 of capacity, a 5xx, and a failure that never reached an answer (a lost
 * connection: anything but the binding's own error classes). The binding throws
 * `InferenceUpstreamError` with "<internal code>: <description>" for an answer that is not ok, and
 * `AiInternalError` for a request it refuses to send; a time-out (3007) has spent its time and is not
 * asked again, nor is any other 4xx.
 */
export function workersAiError(err: unknown, ai: AiRunner): ModelError {
  const name = (err as Error)?.name;
  const message = String((err as Error)?.message ?? err).slice(0, 300);
  const code = Number(/^(\d{4}):/.exec(message)?.[1]) || null;
  const status = name === "InferenceUpstreamError" ? (ai.lastRequestHttpStatusCode ?? null) : null;
  const retryable =
    name === "InferenceUpstreamError"
      ? code === OUT_OF_CAPACITY || (status !== null && (status >= 500 || (status === 429 && code !== ACCOUNT_LIMITED)))
      : name !== "AiInternalError";
  return new ModelError(`Workers AI failed: ${message}`, 502, { retryable });
}

/**
 * Workers AI models that take `tools` and answer `tool_calls` (Cloudflare's "function calling"
 * models); the others get the agent's text protocol (src/services/agent/text-protocol.ts).
 */
export const WORKERS_AI_FUNCTION_CALLING = new Set([
  "@hf/nousresearch/hermes-2-pro-mistral-7b",
  "@cf/meta/llama-3.3-70b-instruct-fp8-fast",
  "@cf/meta/llama-4-scout-17b-16e-instruct",
  "@cf/mistralai/mistral-small-3.1-24b-instruct",
]);

/**
 * Text generation on Workers AI (`env.AI`), streamed: the binding answers with server-sent events
 * `{"response": "<delta>"}` (the last may carry `usage`) and `[DONE]`. A request with tools (or a
 * history of tool turns) runs as one non-streamed call, since the binding's streaming mode returns
 * no tool calls: its `tool_calls` become tool call events, its text one delta.
 */
export function workersAiChatModel(ai: Ai | undefined, model: string): ChatModel {
  if (!ai) throw new ModelError("Workers AI is not configured (no AI binding)", 400);
  const runner = ai as unknown as AiRunner;
  return {
    stream: (request) =>
      request.tools?.length || request.messages.some((m) => m.role === "tool" || m.toolCalls?.length)
        ? toolRound(runner, model, request)
        : streamChat(runner, model, request),
  };
}

/** Tool turns as the binding takes them: OpenAI's form, with the tool's name on its result too. */
function wireMessage(m: ChatMessage): Record<string, unknown> {
  if (m.role === "assistant" && m.toolCalls?.length) {
    return {
      role: "assistant",
      content: m.content,
      tool_calls: m.toolCalls.map((c) => ({
        id: c.id,
        type: "function",
        function: { name: c.name, arguments: c.arguments || "{}" },
      })),
    };
  }
  if (m.role === "tool") return { role: "tool", tool_call_id: m.toolCallId, name: m.name, content: m.content };
  return { role: m.role, content: m.content };
}

type WireCall = { id?: string; name?: string; arguments?: unknown; function?: { name?: string; arguments?: unknown } };

async function* toolRound(ai: AiRunner, model: string, request: ChatRequest): AsyncGenerator<ChatEvent> {
  const inputs: Record<string, unknown> = { messages: promptMessages(request).map(wireMessage) };
  // The binding has no tool_choice: a forced tool is offered alone.
  const forced = typeof request.toolChoice === "object" ? request.toolChoice.name : null;
  const tools = forced ? request.tools?.filter((t) => t.function.name === forced) : request.tools;
  if (tools?.length) {
    inputs.tools = tools.map((t) => ({
      name: t.function.name,
      description: t.function.description ?? "",
      parameters: t.function.parameters ?? { type: "object", properties: {} },
    }));
  }
  if (request.maxTokens !== undefined) inputs.max_tokens = request.maxTokens;
  if (request.temperature !== undefined) inputs.temperature = request.temperature;
  let result: { response?: unknown; tool_calls?: WireCall[]; usage?: Record<string, unknown> } | null;
  try {
    result = (await ai.run(model, inputs, { signal: request.signal })) as typeof result;
    request.onResponse?.();
  } catch (err) {
    if (request.signal?.aborted) return;
    throw workersAiError(err, ai);
  }
  const calls = (result?.tool_calls ?? []).map((c, i) => {
    const name = c.function?.name ?? c.name ?? "";
    const args = c.function?.arguments ?? c.arguments ?? {};
    return { id: c.id ?? `call_${i + 1}`, name, arguments: typeof args === "string" ? args : JSON.stringify(args) };
  });
  const text =
    typeof result?.response === "string" ? result.response : result?.response ? JSON.stringify(result.response) : "";
  if (text && !calls.length) yield { type: "delta", text };
  for (const call of calls) if (call.name) yield { type: "tool_call", ...call };
  if (result?.usage) yield { type: "usage", usage: mapUsage(result.usage) };
}

async function* streamChat(ai: AiRunner, model: string, request: ChatRequest): AsyncGenerator<ChatEvent> {
  const inputs: Record<string, unknown> = { messages: promptMessages(request), stream: true };
  if (request.maxTokens !== undefined) inputs.max_tokens = request.maxTokens;
  if (request.temperature !== undefined) inputs.temperature = request.temperature;
  if (request.jsonSchema) inputs.response_format = { type: "json_schema", json_schema: request.jsonSchema };
  let usage: Usage | null = null;
  try {
    const result = await ai.run(model, inputs, { signal: request.signal });
    request.onResponse?.();
    if (result instanceof ReadableStream) {
      for await (const sse of parseSse(result as ReadableStream<Uint8Array>)) {
        if (sse.data === "[DONE]") break;
        const chunk = parse(sse.data);
        if (typeof chunk?.response === "string" && chunk.response) yield { type: "delta", text: chunk.response };
        if (chunk?.usage) usage = mapUsage(chunk.usage);
      }
    } else {
      // Models without streaming answer with one object.
      const whole = result as { response?: unknown; usage?: Record<string, unknown> } | null;
      const text =
        typeof whole?.response === "string" ? whole.response : whole?.response ? JSON.stringify(whole.response) : "";
      if (text) yield { type: "delta", text };
      if (whole?.usage) usage = mapUsage(whole.usage);
    }
  } catch (err) {
    if (request.signal?.aborted) return;
    throw workersAiError(err, ai);
  }
  if (usage) yield { type: "usage", usage };
}

function parse(text: string): { response?: unknown; usage?: Record<string, unknown> } | null {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
