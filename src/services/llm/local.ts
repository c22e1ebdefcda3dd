import type { ChatEvent, ChatModel, ChatRequest } from "./types";
import { countWords, streamPieces } from "./text";
import { answerFromTools, localToolCall } from "./local-tools";
import { extract, mentions } from "./local-answer";
import { smallTalkReply } from "./local-small-talk";
import { previousQuestion } from "./local-context";
import { unknownAnswer } from "./local-unknown";
import { passageSentences } from "./local-sentences";

export { extract };

/**
 * The built-in local model: deterministic and offline. It answers extractively (local-answer.ts): an
 * FAQ's answer, or the sentences of the retrieved passages that answer the question, best first,
 * never one that restates it; a follow-up is read with the previous question (local-context.ts).
 * Small talk gets a short polite reply, a request for a person the hand-off reply
 * (local-small-talk.ts). When its sources do not answer, it says it does not know (docs/decisions.md,
 * "The built-in model's answer composition"). JSON Schema output is an instance of the schema
 * carrying the answer in its first string field. Tokens stream one word (or CJK character) at a time.
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
    const asked = request.messages.filter((m) => m.role === "user").map((m) => m.content);
    const question = asked.at(-1) ?? "";
    const documents = (request.attachments ?? [])
      .filter((a) => a.kind === "document" && a.text)
      .map((a, i) => ({ index: i + 1, text: a.text!, title: a.filename }));
    const passages = request.passages ?? [];
    // Retrieved passages first; the turn's own documents when the passages do not touch the question ("please check my
    // notes").
    const grounding = passages.length && (!documents.length || mentions(question, passages)) ? passages : documents;
    // A request for a person never reaches a model while handoff is on (services/conversation/handoff.ts).
    const reply =
      smallTalkReply(question, asked.slice(0, -1)) ??
      (grounding.length
        ? groundedAnswer(question, asked.slice(0, -1), grounding, grounding === documents)
        : noContextAnswer(question, asked.slice(0, -1), request));
    const answer = acknowledge(request) + reply;
    const text = request.jsonSchema ? JSON.stringify(instanceOf(request.jsonSchema, answer)) : answer;
    for (const piece of streamPieces(text)) {
      if (request.signal?.aborted) return;
      yield { type: "delta", text: piece };
    }
    const promptTokens =
      request.messages.reduce((n, m) => n + countWords(m.content), 0) +
      (request.passages ?? []).reduce((n, p) => n + countWords(p.text), 0);
    const completionTokens = countWords(text);
    yield { type: "usage", usage: { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens } };
  },
};

/** The answer from the passages (or the turn's documents), read with the previous question when this one follows it up.
 * */
function groundedAnswer(
  question: string,
  earlier: string[],
  grounding: { index: number; text: string }[],
  fromDocuments: boolean,
): string {
  const answer = extract(question, grounding, previousQuestion(question, earlier));
  if (answer) return answer;
  // "Please check my notes" points at the visitor's own file: its opening sentence says what it holds.
  if (fromDocuments)
    return (
      passageSentences(grounding[0].text, new Set()).find((s) => !s.heading)?.text ?? unknownAnswer(question, earlier)
    );
  return unknownAnswer(question, earlier);
}

function noContextAnswer(question: string, earlier: string[], request: ChatRequest): string {
  const hasInstructions = request.messages.some((m) => m.role === "system" && m.content.trim());
  const topic = question.trim().replace(/\s+/g, " ").slice(0, 200);
  // Without instructions or sources the model is the test echo (many tests and the README rely on it).
  return hasInstructions ? unknownAnswer(question, earlier) : `You said: "${topic}".`;
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
        return s.minItems
          ? Array.from({ length: Number(s.minItems) }, () => walk((s.items ?? {}) as Record<string, unknown>))
          : [];
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
  const kind = (a: (typeof files)[number]) =>
    a.kind === "image" ? "image" : a.kind === "document" ? "document" : "file";
  return `I received your attachments: ${files.map((a) => `${a.filename} (${kind(a)})`).join(", ")}. `;
}
