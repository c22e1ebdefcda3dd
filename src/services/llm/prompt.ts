import type { ChatMessage, ChatRequest } from "./types";

const SOURCES_INTRO = "Answer from the numbered sources below when they help, citing them as [n].";

/** The passages as numbered sources: "[1] title\ntext", one block each. */
export function renderSources(passages: NonNullable<ChatRequest["passages"]>): string {
  return passages.map((p) => `[${p.index}] ${p.title ? `${p.title}\n` : ""}${p.text.trim()}`).join("\n\n");
}

/**
 * Messages for a remote provider: the passages go into the (first) system message as numbered
 * sources, so every provider sees the same grounding the local model uses.
 */
export function promptMessages(request: ChatRequest): ChatMessage[] {
  const passages = request.passages ?? [];
  if (!passages.length) return request.messages;
  const sources = `${SOURCES_INTRO}\n\nSources:\n${renderSources(passages)}`;
  const at = request.messages.findIndex((m) => m.role === "system");
  if (at < 0) return [{ role: "system", content: sources }, ...request.messages];
  return request.messages.map((m, i) => (i === at ? { ...m, content: `${m.content.trim()}\n\n${sources}` } : m));
}
