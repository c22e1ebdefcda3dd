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
  const files = renderAttachments(request.attachments ?? []);
  if (!passages.length && !files) return request.messages;
  const sources = [passages.length ? `${SOURCES_INTRO}\n\nSources:\n${renderSources(passages)}` : "", files]
    .filter(Boolean)
    .join("\n\n");
  const at = request.messages.findIndex((m) => m.role === "system");
  if (at < 0) return [{ role: "system", content: sources }, ...request.messages];
  return request.messages.map((m, i) => (i === at ? { ...m, content: `${m.content.trim()}\n\n${sources}` } : m));
}

/** Documents attached in the conversation, as text the model reads; other files are named. */
export function renderAttachments(parts: NonNullable<ChatRequest["attachments"]>): string {
  const documents = parts.filter((p) => p.kind === "document" && p.text);
  const others = parts.filter((p) => p.kind === "file");
  const blocks = documents.map((p) => `--- ${p.filename} ---\n${p.text!.trim()}`);
  if (others.length) {
    const named = others.map((p) => `${p.filename} (${p.contentType})`);
    blocks.push(`Files the visitor attached that cannot be read as text: ${named.join(", ")}.`);
  }
  return blocks.length ? `The visitor attached these files in this conversation:\n\n${blocks.join("\n\n")}` : "";
}
