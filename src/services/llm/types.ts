/** One chat interface for every provider (STYLE 6): local, OpenAI-compatible, Workers AI. */
export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/** A retrieved passage the answer may use; `index` is its citation number ([1], [2], ...). */
export interface Passage {
  index: number;
  text: string;
  title?: string;
}

export interface ChatRequest {
  messages: ChatMessage[];
  /** Grounding for this turn. Remote providers get them rendered into the system message. */
  passages?: Passage[];
  /** When set, the answer must be JSON valid against this JSON Schema. */
  jsonSchema?: Record<string, unknown>;
  maxTokens?: number;
  temperature?: number;
  signal?: AbortSignal;
}

export interface Usage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export type ChatEvent = { type: "delta"; text: string } | { type: "usage"; usage: Usage };

export interface ChatModel {
  /** Streams the answer as text deltas, then (where the provider reports it) one usage event. */
  stream(request: ChatRequest): AsyncIterable<ChatEvent>;
}

/** Thrown by providers for upstream failures; carries what callers may show. */
export class ModelError extends Error {
  constructor(
    message: string,
    readonly status = 502,
  ) {
    super(message);
  }
}
