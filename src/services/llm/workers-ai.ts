import { mapUsage } from "./openai-compatible";
import { promptMessages } from "./prompt";
import { parseSse } from "./sse";
import { ModelError, type ChatEvent, type ChatModel, type ChatRequest, type Usage } from "./types";

/** The part of the AI binding used here; its generated types list every model, which we do not need. */
interface AiRunner {
  run(model: string, inputs: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<unknown>;
}

/**
 * Text generation on Workers AI (`env.AI`), streamed: the binding answers with server-sent events
 * `{"response": "<delta>"}` (the last may carry `usage`) and `[DONE]`. Tools are not passed: the
 * binding's streaming mode does not return tool calls.
 */
export function workersAiChatModel(ai: Ai | undefined, model: string): ChatModel {
  if (!ai) throw new ModelError("Workers AI is not configured (no AI binding)", 400);
  const runner = ai as unknown as AiRunner;
  return { stream: (request) => streamChat(runner, model, request) };
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
      const text = typeof whole?.response === "string" ? whole.response : whole?.response ? JSON.stringify(whole.response) : "";
      if (text) yield { type: "delta", text };
      if (whole?.usage) usage = mapUsage(whole.usage);
    }
  } catch (err) {
    if (request.signal?.aborted) return;
    throw new ModelError(`Workers AI failed: ${String((err as Error)?.message ?? err).slice(0, 300)}`, 502);
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
