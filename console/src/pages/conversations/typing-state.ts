import { useEffect, useRef, useState } from "preact/hooks";
import type { TypingEvent } from "./live";

/** The visitor's indicator hides after this long without another `typing: true` (their page may have closed). */
const SHOWN_MS = 6000;

/**
 * Who is typing in the open conversation, from the live stream's `conversation.typing`: the
 * visitor's name while they type (other members' typing is not shown), null otherwise.
 */
export function useVisitorTyping(conversationId: string | null) {
  const [name, setName] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const clear = () => {
    clearTimeout(timer.current);
    setName(null);
  };
  useEffect(() => clear, [conversationId]);
  const heard = (e: TypingEvent) => {
    if (e.conversationId !== conversationId || e.sender.type !== "contact") return;
    if (!e.typing) return clear();
    clearTimeout(timer.current);
    setName(e.sender.name);
    timer.current = setTimeout(() => setName(null), SHOWN_MS);
  };
  return { name, heard, clear };
}
