import type { ChatEvent, ChatModel, ChatRequest, Passage } from "./types";
import { countWords, sentences, streamPieces, terms } from "./text";
import { answerFromTools, localToolCall } from "./local-tools";

/**
 * The built-in local model: deterministic and offline. It answers extractively: the sentences of
 * the retrieved passages that share the most terms with the question, in passage order, each
 * followed by its citation number as `[n]` markers would place it. With no passages it says so
 * plainly. JSON Schema output is an instance of the schema carrying the answer in its first
 * string field. Tokens stream one word (or CJK character) at a time.
 */
export const localChatModel: ChatModel = {
  async *stream(request: ChatRequest): AsyncIterable<ChatEvent> {
    // Agent mode: a deterministic tool call, or the answer from the tools' results (local-tools.ts).
    const call = localToolCall(request);
    if (call) {
      yield { type: "tool_call", ...call };
      return;
    }
    const fromTools = answerFromTools(request.messages);
    if (fromTools !== null) {
      for (const piece of streamPieces(fromTools)) yield { type: "delta", text: piece };
      return;
    }
    const question = [...request.messages].reverse().find((m) => m.role === "user")?.content ?? "";
    const documents = (request.attachments ?? []).filter((a) => a.kind === "document" && a.text).map((a, i) => ({ index: i + 1, text: a.text!, title: a.filename }));
    const grounding = request.passages?.length ? request.passages : documents;
    const answer = acknowledge(request) + (grounding.length ? extract(question, grounding) : noContextAnswer(question, request));
    const text = request.jsonSchema ? JSON.stringify(instanceOf(request.jsonSchema, answer)) : answer;
    for (const piece of streamPieces(text)) {
      if (request.signal?.aborted) return;
      yield { type: "delta", text: piece };
    }
    const promptTokens = request.messages.reduce((n, m) => n + countWords(m.content), 0) + (request.passages ?? []).reduce((n, p) => n + countWords(p.text), 0);
    const completionTokens = countWords(text);
    yield { type: "usage", usage: { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens } };
  },
};

const MAX_SENTENCES = 3;

/** Best sentences of the passages by shared terms with the question; ties keep passage order. */
export function extract(question: string, passages: Passage[]): string {
  const wanted = new Set(terms(question));
  const scored: { text: string; passage: number; order: number; score: number }[] = [];
  let order = 0;
  for (const p of passages) {
    for (const s of sentences(p.text)) {
      const score = new Set(terms(s).filter((t) => wanted.has(t))).size;
      scored.push({ text: s, passage: p.index, order: order++, score });
    }
  }
  const best = scored
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, MAX_SENTENCES)
    .sort((a, b) => a.order - b.order);
  const chosen = best.length ? best : scored.slice(0, 1);
  return chosen.map((s) => s.text).join(" ");
}

function noContextAnswer(question: string, request: ChatRequest): string {
  const hasInstructions = request.messages.some((m) => m.role === "system" && m.content.trim());
  const topic = question.trim().replace(/\s+/g, " ").slice(0, 200);
  return hasInstructions
    ? `I have no information in my sources about "${topic}".`
    : `You said: "${topic}".`;
}

/** A JSON value valid against a (simple) JSON Schema, with `answer` in the first string slot. */
export function instanceOf(schema: Record<string, unknown>, answer: string): unknown {
  let used = false;
  const walk = (s: Record<string, unknown>): unknown => {
    if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
    if ("const" in s) return s.const;
    const type = Array.isArray(s.type) ? s.type[0] : s.type;
    switch (type) {
      case "object": {
        const props = (s.properties ?? {}) as Record<string, Record<string, unknown>>;
        return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, walk(v)]));
      }
      case "array":
        return s.minItems ? Array.from({ length: Number(s.minItems) }, () => walk((s.items ?? {}) as Record<string, unknown>)) : [];
      case "integer":
      case "number":
        return typeof s.minimum === "number" ? s.minimum : 0;
      case "boolean":
        return false;
      case "null":
        return null;
      default: {
        if (used) return "";
        used = true;
        return answer;
      }
    }
  };
  return walk(schema);
}

/** "I received your attachments: notes.pdf (document), cat.png (image). " for the files of the turn. */
function acknowledge(request: ChatRequest): string {
  const files = request.attachments ?? [];
  if (!files.length) return "";
  const kind = (a: (typeof files)[number]) => (a.kind === "image" ? "image" : a.kind === "document" ? "document" : "file");
  return `I received your attachments: ${files.map((a) => `${a.filename} (${kind(a)})`).join(", ")}. `;
}
