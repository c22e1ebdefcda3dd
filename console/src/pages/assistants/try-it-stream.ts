// One question of the try-it panel, streamed through the public completions endpoint (the same
// server-sent events a customer's integration reads): text deltas, tool calls and their results,
// then the stored message with its citations and token usage.
import { readEvents } from "../../../../widget/src/sse";
import { ApiProblem, api, unwrap, type Schemas } from "../../api/client";

type Message = Schemas["Message"];

export interface ToolCall {
  id: string;
  name: string;
  input: unknown;
  status?: string;
  output?: unknown;
  error?: string | null;
  durationMs?: number;
}

export interface Citation {
  title: string;
  knowledgeBase: string | null;
  passage: string;
  score: number | null;
}

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

export const newTurn = (question: string): Turn => ({ question, answer: "", state: "streaming", toolCalls: [], citations: [], usage: null, firstTokenMs: null, totalMs: null });

const str = (v: unknown) => (typeof v === "string" ? v : "");

/** The passages the reply drew on (`citationNodes`), best first, as the panel shows them. */
export function citationsOf(message: Message): Citation[] {
  return message.citationNodes.map((c) => {
    const node = (c.node ?? {}) as Record<string, unknown>;
    const faq = node.faq as { question?: string; answer?: string } | null | undefined;
    const base = node.knowledgeBase as { name?: string } | null | undefined;
    return {
      title: str(faq?.question) || str(node.filename) || str((node.knowledgeBaseFile as { filename?: string } | null)?.filename),
      knowledgeBase: str(base?.name) || null,
      passage: faq ? `${str(faq.question)}\n${str(faq.answer)}` : str(node.text),
      score: typeof c.score === "number" ? c.score : null,
    };
  });
}

function toolCallOf(data: Record<string, unknown>): ToolCall {
  return {
    id: str(data.id) || str(data.callId),
    name: str(data.displayName) || str(data.name),
    input: data.input,
    ...(data.status !== undefined ? { status: str(data.status), output: data.output, error: (data.error as string | null) ?? null, durationMs: Number(data.durationMs) || 0 } : {}),
  };
}

/**
 * Asks `content` in `conversation` (null: a new one) and reports the turn as it grows through
 * `update`. Resolves with the conversation's id (the new one's, for a first question).
 */
export async function ask(assistantId: string, conversation: string | null, content: string, update: (turn: Turn) => void, signal?: AbortSignal): Promise<string | null> {
  let turn = newTurn(content);
  const change = (patch: Partial<Turn>) => update((turn = { ...turn, ...patch }));
  const started = performance.now();
  let conversationId = conversation;
  try {
    const body = await unwrap(
      api.POST("/api/v1/chatbots/{chatbotId}/completions/", {
        params: { path: { chatbotId: assistantId } },
        body: { conversation, message: { content }, isStreaming: true, waitForAttachments: true },
        parseAs: "stream",
        signal,
      }),
    );
    await readEvents(body as unknown as ReadableStream<BufferSource>, (_id, event, data) => {
      if (event === "error") throw new ApiProblem(502, str(data.detail) || "The reply failed.", str(data.code) || "error");
      conversationId = str(data.conversationId) || conversationId;
      if (event === "tool_call") change({ toolCalls: [...turn.toolCalls, toolCallOf(data)] });
      else if (event === "tool_result") {
        const result = toolCallOf(data);
        const known = turn.toolCalls.some((c) => c.id === result.id);
        change({ toolCalls: known ? turn.toolCalls.map((c) => (c.id === result.id ? result : c)) : [...turn.toolCalls, result] });
      } else if (event === "message" && data.done) {
        const message = data.message as Message | null;
        const totalMs = Math.round(performance.now() - started);
        // No message: the conversation is with a human agent, and the assistant does not answer.
        if (!message) return change({ state: "human", totalMs });
        const calls = ((message.contentPayload?.toolCalls ?? []) as Record<string, unknown>[]).map(toolCallOf);
        change({ state: "done", answer: message.content, citations: citationsOf(message), usage: message.usage, toolCalls: calls.length ? calls : turn.toolCalls, totalMs });
      } else if (event === "message" && str(data.content)) {
        change({ answer: turn.answer + str(data.content), firstTokenMs: turn.firstTokenMs ?? Math.round(performance.now() - started) });
      }
    });
  } catch (err) {
    change({ state: "failed", error: err instanceof ApiProblem ? err.detail : String((err as Error).message ?? err), totalMs: Math.round(performance.now() - started) });
  }
  return conversationId;
}
