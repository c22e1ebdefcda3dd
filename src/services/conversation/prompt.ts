import type { ChatMessage } from "../llm";
import type { ReplyInput } from "./replies";

/** The conversation as the model reads it: the assistant's instructions, the history, then the message to answer. */
export function conversationPrompt({ chatbot, history, incoming }: ReplyInput): ChatMessage[] {
  const system = chatbot.instructions.trim();
  return [
    ...(system ? [{ role: "system" as const, content: system }] : []),
    ...history.map((m) => ({
      role: m.type === "incoming" ? ("user" as const) : ("assistant" as const),
      content: m.content,
    })),
    { role: "user", content: incoming.content },
  ];
}
