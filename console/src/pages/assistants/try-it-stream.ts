// One question of the try-it panel, streamed through the public completions endpoint (the same
// server-sent events a customer's integration reads): text deltas, tool calls and their results,
// then the stored message with its citations and token usage.
import { readEvents } from "../../../../widget/src/sse";
import { ApiProblem, StreamEnded, api, isExpected, problemOf, unwrap, type Schemas } from "../../api/client";
import { t } from "./strings";

type Message = Schemas["Message"];
type Ids = "conversationId" | "messageId";

/** A tool call as the panel shows it: its `tool_call` event, completed by its `tool_result` (or the stored reply's). */
export type ToolCall = Omit<Schemas["ToolCallEvent"], Ids> &
  Partial<Omit<Schemas["ToolResultEvent"], keyof Schemas["ToolCallEvent"]>>;

/** A passage the reply drew on, as the stored message lists it. */
export type Citation = Schemas["CitationNode"];

export interface Turn {
  question: string;
  answer: string;
  state: "streaming" | "done" | "failed" | "human";
  error?: string;
  toolCalls: ToolCall[];
  citations: Citation[];
  usage: Message["usage"];
  /** Milliseconds from sending to the first text delta (time to first token). */
  firstTokenMs: number | null;
  totalMs: number | null;
}

export const newTurn = (question: string): Turn => ({
  question,
  answer: "",
  state: "streaming",
  toolCalls: [],
  citations: [],
  usage: null,
  firstTokenMs: null,
  totalMs: null,
});

const withoutIds = ({
  conversationId: _c,
  messageId: _m,
  ...call
}: Schemas["ToolCallEvent"] | Schemas["ToolResultEvent"]): ToolCall => call;

/**
 * Asks `content` in `conversation` (null: a new one) and reports the turn as it grows through
 * `update`. Resolves with the conversation's id (the new one's, for a first question). The API's
 * refusal, a failed request or read, and a reply cut short make a failed turn; anything else is a
 * bug and is thrown on.
 */
export async function ask(
  assistantId: string,
  conversation: string | null,
  content: string,
  update: (turn: Turn) => void,
  signal?: AbortSignal,
): Promise<string | null> {
  let turn = newTurn(content);
  const change = (patch: Partial<Turn>) => update((turn = { ...turn, ...patch }));
  const started = performance.now();
  let conversationId = conversation;
  try {
    const body = await unwrap(
      api.POST("/api/v1/chatbots/{chatbotId}/completions/", {
        params: { path: { chatbotId: assistantId } },
        // Marked as a test: the operator's trial conversations stay out of the assistant's statistics
        // and can be told apart (or hidden) in the inbox. Read only when the conversation starts.
        body: { conversation, message: { content }, isStreaming: true, waitForAttachments: true, test: true },
        parseAs: "stream",
        signal,
      }),
    );
    // Each event's `data` is typed by the document's schema for its event name (the route's text/event-stream schema).
    await readEvents(body as unknown as ReadableStream<BufferSource>, (_id, event, data) => {
      if (event === "error") {
        const failure = data as Schemas["CompletionStreamError"];
        throw new ApiProblem(502, failure.detail || "The reply failed.", failure.code || "error");
      }
      if (event === "tool_call" || event === "tool_result") {
        const call = withoutIds(data as Schemas["ToolCallEvent"] | Schemas["ToolResultEvent"]);
        conversationId = (data as Schemas["ToolCallEvent"]).conversationId || conversationId;
        const known = turn.toolCalls.some((c) => c.id === call.id);
        return change({
          toolCalls: known ? turn.toolCalls.map((c) => (c.id === call.id ? call : c)) : [...turn.toolCalls, call],
        });
      }
      if (event !== "message") return;
      const chunk = data as Schemas["CompletionChunk"];
      conversationId = chunk.conversationId || conversationId;
      if (chunk.done) {
        const totalMs = Math.round(performance.now() - started);
        // No message: the conversation is with a human agent, and the assistant does not answer.
        if (!chunk.message) return change({ state: "human", totalMs });
        const message = chunk.message;
        // An agent reply's contentPayload.toolCalls: ToolResultEvent's fields without the ids (the document says so).
        const calls = (message.contentPayload?.toolCalls ?? []) as ToolCall[];
        change({
          state: "done",
          answer: message.content,
          citations: message.citationNodes,
          usage: message.usage,
          toolCalls: calls.length ? calls : turn.toolCalls,
          totalMs,
        });
      } else if (chunk.content) {
        change({
          answer: turn.answer + chunk.content,
          firstTokenMs: turn.firstTokenMs ?? Math.round(performance.now() - started),
        });
      }
    });
  } catch (err) {
    if (!(isExpected(err) || err instanceof StreamEnded)) throw err;
    change({
      state: "failed",
      error: err instanceof StreamEnded ? t("replyCut") : problemOf(err).detail,
      totalMs: Math.round(performance.now() - started),
    });
  }
  return conversationId;
}
