/** One chat interface for every provider (STYLE 6): local, OpenAI-compatible, Workers AI. */
export interface ChatMessage {
  role: "system" | "user" | "assistant" | "tool";
  content: string;
  /** An assistant turn's tool calls (agent loop). */
  toolCalls?: ToolCall[];
  /** A tool turn: the call it answers, and the tool's name. */
  toolCallId?: string;
  name?: string;
}

/** A retrieved passage the answer may use; `index` is its citation number ([1], [2], ...). */
export interface Passage {
  index: number;
  text: string;
  title?: string;
  /** An FAQ's own fields (`text` holds both): a model answering from it says the answer. */
  faq?: { question: string; answer: string };
}

export interface ChatRequest {
  messages: ChatMessage[];
  /** Grounding for this turn. Remote providers get them rendered into the system message. */
  passages?: Passage[];
  /** Files of the conversation: documents as text (system message), images of the last user message as image parts. */
  attachments?: AttachmentPart[];
  /** When set, the answer must be JSON valid against this JSON Schema. */
  jsonSchema?: Record<string, unknown>;
  maxTokens?: number;
  temperature?: number;
  /** Functions the model may call (OpenAI function tools); providers without tools ignore them. */
  tools?: ToolDefinition[];
  /** `required`: the model must call a tool; `{name}`: that tool. Default: the model decides. */
  toolChoice?: "auto" | "required" | { name: string };
  signal?: AbortSignal;
  /** Called once the provider has begun to answer (its response is in), before the first event. */
  onResponse?: () => void;
  /**
   * Nobody reads the answer before it is complete (a direct completion): providers that can may
   * ask for it in one piece rather than as a stream, which costs less to receive.
   */
  whole?: boolean;
}

/** An attachment as the model sees it: a document's text, an image (a data or signed URL), or a file it cannot read. */
export interface AttachmentPart {
  kind: "document" | "image" | "file";
  filename: string;
  contentType: string;
  /** A document's extracted text (for `file`: why it could not be read, when known). */
  text?: string;
  /** An image's URL; absent when too large to send. */
  url?: string;
}

/** An OpenAI function tool definition, passed to the provider as given. */
export interface ToolDefinition {
  type: "function";
  function: {
    name: string;
    description?: string;
    /** JSON Schema of the arguments. */
    parameters?: Record<string, unknown>;
    strict?: boolean | null;
  };
}

/** A call the model asks for; `arguments` is the JSON text the model wrote, fragments joined. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

export interface Usage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

/**
 * Why the provider ended an answer, where it is not what the answer shows (text: stop; calls: tool_calls): it ran
 * into `maxTokens`, or its content filter cut it. An OpenAI client reads "stop" as an answer complete.
 */
export type CutReason = "length" | "content_filter";

export type ChatEvent =
  | { type: "delta"; text: string }
  | ({ type: "tool_call" } & ToolCall)
  | { type: "usage"; usage: Usage }
  | { type: "cut"; reason: CutReason };

export interface ChatModel {
  /**
   * Streams the answer as text deltas, then the tool calls it asks for (if any, each complete),
   * then (where the provider reports it) one usage event, and one cut event when the answer was cut.
   */
  stream(request: ChatRequest): AsyncIterable<ChatEvent>;
}

/** Thrown by providers for upstream failures; carries what callers may show. */
export class ModelError extends Error {
  /** Asking again may succeed (a 429, a connection lost): see withRetries. */
  readonly retryable: boolean;
  /** How long the provider asked us to wait (its `Retry-After`), when it did. */
  readonly retryAfterMs: number | null;

  constructor(
    message: string,
    readonly status = 502,
    retry: { retryable?: boolean; retryAfterMs?: number | null } = {},
  ) {
    super(message);
    this.retryable = retry.retryable ?? false;
    this.retryAfterMs = retry.retryAfterMs ?? null;
  }
}
