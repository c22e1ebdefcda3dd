import { providerText } from "./errors";
import { promptMessages } from "./prompt";
import { parseSse, startsAsJsonObject } from "./sse";
import {
  ModelError,
  type ChatEvent,
  type ChatMessage,
  type ChatModel,
  type ChatRequest,
  type ToolCall,
  type Usage,
} from "./types";

export interface OpenAiCompatibleOptions {
  /** Up to and including the version segment, e.g. `https://api.openai.com/v1`. */
  baseUrl: string;
  apiKey: string | null;
  /** Model name at the provider. */
  model: string;
  /** Overall limit for one answer, streaming included (default 60 s). */
  timeoutMs?: number;
}

export const DEFAULT_TIMEOUT_MS = 60_000;

/** Any `/chat/completions` endpoint speaking OpenAI's protocol, always asked to stream. */
export function openAiCompatibleChatModel(options: OpenAiCompatibleOptions): ChatModel {
  return { stream: (request) => streamChat(options, request) };
}

/** The upstream request body: OpenAI's snake_case fields, only those the request sets. */
export function requestBody(model: string, request: ChatRequest): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model,
    messages: withImages(promptMessages(request), request).map(wireMessage),
    stream: !request.whole,
  };
  if (!request.whole) body.stream_options = { include_usage: true };
  if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.jsonSchema)
    body.response_format = {
      type: "json_schema",
      json_schema: { name: "output", schema: request.jsonSchema, strict: false },
    };
  if (request.tools?.length) body.tools = request.tools;
  if (request.tools?.length && request.toolChoice) {
    body.tool_choice =
      typeof request.toolChoice === "string"
        ? request.toolChoice
        : { type: "function", function: { name: request.toolChoice.name } };
  }
  return body;
}

/** Agent turns in OpenAI's wire form: an assistant's `tool_calls`, a tool result's `tool_call_id`. */
function wireMessage(m: unknown): unknown {
  const msg = m as ChatMessage;
  if (msg.role === "assistant" && msg.toolCalls?.length) {
    return {
      role: "assistant",
      content: msg.content || null,
      tool_calls: msg.toolCalls.map((c) => ({
        id: c.id,
        type: "function",
        function: { name: c.name, arguments: c.arguments || "{}" },
      })),
    };
  }
  if (msg.role === "tool") return { role: "tool", tool_call_id: msg.toolCallId, content: msg.content };
  return m;
}

/** The images attached to the last user message become OpenAI `image_url` content parts beside its text. */
function withImages(messages: ChatMessage[], request: ChatRequest): unknown[] {
  const images = (request.attachments ?? []).filter((a) => a.kind === "image" && a.url);
  if (!images.length) return messages;
  const last = messages.map((m) => m.role).lastIndexOf("user");
  return messages.map((m, i) =>
    i === last
      ? {
          role: m.role,
          content: [
            { type: "text", text: m.content },
            ...images.map((a) => ({ type: "image_url", image_url: { url: a.url } })),
          ],
        }
      : m,
  );
}

async function* streamChat(o: OpenAiCompatibleOptions, request: ChatRequest): AsyncGenerator<ChatEvent> {
  const timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
  // Upstream messages may echo what they were sent; the key must never reach our callers.
  const scrub = (text: string) => providerText(text, o.apiKey);
  // A lost connection may be asked again (withRetries does, before the first token); a time-out
  // has spent the answer's whole time and is not.
  const failure = (err: unknown) =>
    timeout.aborted
      ? new ModelError(`The model provider did not finish within ${timeoutMs / 1000} s.`, 504)
      : new ModelError(`Could not reach the model provider: ${scrub(String((err as Error)?.message ?? err))}`, 502, {
          retryable: true,
        });

  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    Accept: request.whole ? "application/json" : "text/event-stream",
  };
  if (o.apiKey) headers.Authorization = `Bearer ${o.apiKey}`;
  let res: Response;
  try {
    res = await fetch(`${o.baseUrl.replace(/\/+$/, "")}/chat/completions`, {
      method: "POST",
      headers,
      body: JSON.stringify(requestBody(o.model, request)),
      signal,
    });
  } catch (err) {
    if (request.signal?.aborted) return;
    throw failure(err);
  }
  if (!res.ok) {
    const retry = res.status === 429 ? { retryable: true, retryAfterMs: retryAfterMs(res.headers) } : {};
    throw new ModelError(`The model provider answered ${res.status}${await upstreamDetail(res, scrub)}`, 502, retry);
  }
  request.onResponse?.();

  const state = new ChunkState();
  try {
    if (!res.body) throw new Error("empty response");
    let body = res.body;
    const type = res.headers.get("Content-Type") ?? "";
    let json = /application\/json/i.test(type);
    // Some send their JSON as text/plain or with no type at all: read as an event stream, it held no event, and a
    // provider's error ended as a stream that ended early, its words lost.
    if (!json && !/text\/event-stream/i.test(type)) ({ json, body } = await startsAsJsonObject(body));
    if (json) {
      // A provider that ignores `stream: true` answers with one completion object. Some answer a failure with a 200
      // and an error body instead of a completion: read as one, it was an empty answer, the provider's words lost.
      const whole: Json | null = JSON.parse(await new Response(body).text());
      if (whole?.error && !Array.isArray(whole.choices))
        throw new ModelError(
          `The model provider failed: ${scrub(errorMessage(whole) ?? JSON.stringify(whole.error))}`,
          502,
        );
      if (whole) yield* state.take(whole, true);
    } else {
      for await (const sse of parseSse(body)) {
        if (sse.data === "[DONE]") {
          state.done = true;
          break;
        }
        const chunk = parseJson(sse.data);
        if (sse.event === "error" || chunk?.error)
          throw new ModelError(`The model provider failed: ${scrub(errorMessage(chunk) ?? sse.data)}`, 502);
        if (chunk) yield* state.take(chunk, false);
      }
    }
  } catch (err) {
    if (err instanceof ModelError) throw err;
    if (request.signal?.aborted) return;
    throw failure(err);
  }
  if (!state.done)
    throw new ModelError("The model provider's stream ended before the answer was complete.", 502, { retryable: true });
  yield* state.finish();
}

// biome-ignore lint/suspicious/noExplicitAny: a provider's JSON, each field read with a check of its own
type Json = Record<string, any>;

/** Accumulates what arrives chunk by chunk: tool-call fragments, the usage and whether the answer was cut. */
class ChunkState {
  done = false;
  private calls = new Map<number, ToolCall>();
  private usage: Usage | null = null;
  private finishReason: string | null = null;

  *take(chunk: Json, whole: boolean): Generator<ChatEvent> {
    if (chunk.usage) this.usage = mapUsage(chunk.usage);
    for (const choice of objects(chunk.choices)) {
      if ((choice.index ?? 0) !== 0) continue;
      const part: Json = (whole ? choice.message : choice.delta) ?? {};
      if (typeof part.content === "string" && part.content) yield { type: "delta", text: part.content };
      for (const call of objects(part.tool_calls)) this.addCall(call);
      if (choice.finish_reason) {
        this.done = true;
        this.finishReason = String(choice.finish_reason);
      }
    }
    if (whole) this.done = true;
  }

  private addCall(call: Json) {
    const index = typeof call.index === "number" ? call.index : this.calls.size;
    const entry = this.calls.get(index) ?? { id: "", name: "", arguments: "" };
    if (call.id) entry.id = String(call.id);
    if (call.function?.name) entry.name = String(call.function.name);
    if (typeof call.function?.arguments === "string") entry.arguments += call.function.arguments;
    this.calls.set(index, entry);
  }

  *finish(): Generator<ChatEvent> {
    for (const [index, call] of [...this.calls.entries()].sort((a, b) => a[0] - b[0])) {
      yield { type: "tool_call", ...call, id: call.id || `call_${index}` };
    }
    if (this.usage) yield { type: "usage", usage: this.usage };
    const reason = this.finishReason;
    if (reason === "length" || reason === "content_filter") yield { type: "cut", reason };
  }
}

export function mapUsage(u: Json): Usage {
  const promptTokens = Number(u.prompt_tokens ?? u.input_tokens ?? 0) || 0;
  const completionTokens = Number(u.completion_tokens ?? u.output_tokens ?? 0) || 0;
  return { promptTokens, completionTokens, totalTokens: Number(u.total_tokens) || promptTokens + completionTokens };
}

/** The objects of a list in a provider's JSON; anything else is none. */
const objects = (value: unknown): Json[] =>
  Array.isArray(value) ? value.filter((v): v is Json => v !== null && typeof v === "object") : [];

function parseJson(text: string): Json | null {
  try {
    const value = JSON.parse(text);
    return value && typeof value === "object" ? value : null;
  } catch {
    return null;
  }
}

const errorMessage = (body: Json | null): string | undefined => {
  const e = body?.error ?? body;
  const message = typeof e === "string" ? e : (e?.message ?? e?.detail);
  return typeof message === "string" ? message : undefined;
};

/** The wait a 429 asks for: OpenAI's `retry-after-ms`, else `Retry-After` in seconds or as a date. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | null {
  const ms = Number(headers.get("retry-after-ms"));
  if (headers.has("retry-after-ms") && Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get("retry-after")?.trim();
  if (!value) return null;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** ": <message>" from an upstream error body, key scrubbed and cut (scrub); "." when it says nothing useful. */
async function upstreamDetail(res: Response, scrub: (s: string) => string): Promise<string> {
  const text = await res.text().catch(() => "");
  const message = errorMessage(parseJson(text)) ?? text.trim();
  return message ? `: ${scrub(message)}` : ".";
}
