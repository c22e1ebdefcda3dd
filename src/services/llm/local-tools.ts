import type { ChatMessage, ChatRequest, ToolCall, ToolDefinition } from "./types";
import { extract } from "./local";
import { terms } from "./text";

/** Words too common to show a tool is meant. */
const COMMON = new Set([
  "the",
  "a",
  "an",
  "of",
  "to",
  "for",
  "and",
  "or",
  "in",
  "on",
  "is",
  "what",
  "get",
  "tool",
  "api",
  "my",
  "me",
  "please",
  "with",
  "this",
  "that",
  "it",
  "be",
  "can",
  "you",
  "i",
]);

const words = (text: string) => terms(text.replace(/[_-]+/g, " ")).filter((t) => !COMMON.has(t));

/**
 * The local model's tool use, deterministic so agent mode works offline: on the user's turn it
 * calls the tool the request forces (`toolChoice`: the message's toolIds), else the tool whose name
 * shares a word with the question, else (two shared words) its description; a knowledge search
 * is the fallback when nothing else matches. One call per question: once results are in, it answers.
 */
export function localToolCall(request: ChatRequest): ToolCall | null {
  const tools = request.tools ?? [];
  const last = request.messages[request.messages.length - 1];
  if (!tools.length || last?.role !== "user") return null;
  const choice = request.toolChoice;
  const forced =
    typeof choice === "object"
      ? tools.find((t) => t.function.name === choice.name)
      : choice === "required"
        ? tools[0]
        : undefined;
  const question = last.content;
  const asked = new Set(words(question));
  const score = (t: ToolDefinition) => {
    const byName = new Set(words(t.function.name).filter((w) => asked.has(w))).size;
    const byDescription = new Set(words(t.function.description ?? "").filter((w) => asked.has(w))).size;
    return byName * 10 + (byDescription >= 2 ? byDescription : 0);
  };
  const ranked = tools
    .map((t, i) => ({ t, s: t.function.name === "search_knowledge_base" ? 0 : score(t), i }))
    .sort((a, b) => b.s - a.s || a.i - b.i);
  const chosen =
    forced ?? (ranked[0]?.s > 0 ? ranked[0].t : tools.find((t) => t.function.name === "search_knowledge_base"));
  if (!chosen) return null;
  return {
    id: `call_local_${request.messages.length}`,
    name: chosen.function.name,
    arguments: JSON.stringify(fillArguments(chosen.function.parameters ?? {}, question)),
  };
}

/**
 * Arguments from the question: `name: value` or `name=value` when the question spells them, else
 * numbers in order for numeric fields, enum values the question names, and the question itself for
 * the first text field.
 */
export function fillArguments(schema: Record<string, unknown>, question: string): Record<string, unknown> {
  const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const numbers = [...question.matchAll(/-?\d+(?:\.\d+)?/g)].map((m) => Number(m[0]));
  const out: Record<string, unknown> = {};
  let textUsed = false;
  for (const [name, p] of Object.entries(props)) {
    const spelled = new RegExp(`\\b${name.replace(/[^\w-]/g, "")}\\s*[:=]\\s*("([^"]*)"|[^,;\\n]+)`, "i").exec(
      question,
    );
    const type = Array.isArray(p.type) ? p.type[0] : p.type;
    const literal =
      spelled && (type === "array" || type === "object")
        ? jsonAt(question, spelled.index + spelled[0].length - spelled[1].length)
        : undefined;
    if (literal !== undefined) {
      out[name] = literal;
    } else if (spelled) {
      const raw = (spelled[2] ?? spelled[1]).trim();
      out[name] =
        type === "number" || type === "integer" ? Number(raw) : type === "boolean" ? /^(true|yes|1)$/i.test(raw) : raw;
    } else if (Array.isArray(p.enum) && p.enum.length) {
      out[name] =
        p.enum.find((v) => typeof v === "string" && question.toLowerCase().includes(v.toLowerCase())) ?? p.enum[0];
    } else if (type === "number" || type === "integer") {
      if (numbers.length) out[name] = numbers.shift();
    } else if (type === "boolean") {
      out[name] = false;
    } else if (
      type === "array" &&
      ["number", "integer"].includes(String((p.items as Record<string, unknown> | undefined)?.type))
    ) {
      out[name] = numbers.splice(0);
    } else if (type === "array") {
      out[name] = question
        .split(/[,;]|\bor\b/)
        .map((s) => s.trim())
        .filter(Boolean)
        .slice(0, Number(p.maxItems) || 3);
    } else if (!textUsed && (type === "string" || type === undefined)) {
      out[name] = question;
      textUsed = true;
    }
  }
  return out;
}

/** The local model's answer from the tool results after the last user message. */
export function answerFromTools(messages: ChatMessage[]): string | null {
  const at = messages.map((m) => m.role).lastIndexOf("user");
  const results = messages.slice(at + 1).filter((m) => m.role === "tool");
  if (!results.length) return null;
  const question = messages[at]?.content ?? "";
  return results.map((r) => describe(r, question)).join(" ");
}

function describe(result: ChatMessage, question: string): string {
  const text = result.content.trim();
  if (/^\[\d+\]/.test(text)) {
    const passages = text.split(/\n\n(?=\[\d+\])/).map((block) => {
      const m = /^\[(\d+)\]\s*([\s\S]*)$/.exec(block)!;
      return { index: Number(m[1]), text: m[2] };
    });
    return extract(question, passages);
  }
  let value: unknown = text;
  try {
    value = JSON.parse(text);
  } catch {
    // plain text
  }
  const rendered =
    value && typeof value === "object" && !Array.isArray(value)
      ? Object.entries(value as Record<string, unknown>)
          .map(([k, v]) => `${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`)
          .join(", ")
      : typeof value === "string"
        ? value
        : JSON.stringify(value);
  return `${result.name ?? "The tool"} returned ${rendered.slice(0, 2000)}.`;
}

/** The JSON array or object that starts at `from` in `text` (its brackets balanced), or undefined. */
function jsonAt(text: string, from: number): unknown {
  const open = text[from];
  if (open !== "[" && open !== "{") return undefined;
  let depth = 0;
  let inString = false;
  for (let i = from; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === "[" || ch === "{") depth++;
    else if ((ch === "]" || ch === "}") && --depth === 0) {
      try {
        return JSON.parse(text.slice(from, i + 1));
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}
