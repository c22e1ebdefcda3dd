import { useEffect, useRef } from "preact/hooks";
import type { Conversation, Message } from "./inbox-api";

/** A conversation as the live stream carries it: its state and the ids of what it belongs to. */
export type LiveConversation = Pick<Conversation, "id" | "title" | "status" | "progressStatus" | "autoReplyEnabled" | "lastMessage" | "lastMessageCreatedAt" | "createdAt" | "csat"> & {
  inbox: { id: string };
  chatbot: { id: string } | null;
  contact: { id: string } | null;
  assignee: { id: string } | null;
};

export type LiveEvent =
  | { type: "conversation.created" | "conversation.updated"; conversation: LiveConversation }
  | { type: "message.created"; conversation: LiveConversation; message: Message };

/** Someone typing in a conversation (`conversation.typing`): nothing stored, the indicator only. */
export interface TypingEvent {
  conversationId: string;
  typing: boolean;
  sender: { type: "contact" | "user"; id: string; name: string };
}

/** The API waits this long before publishing again for an organization it found unwatched (QUIET_MS). */
const CATCH_UP_MS = 2_500;

/**
 * The organization's live conversation events (`conversation-events/`, an EventSource with the
 * session cookie). `onEvent` gets each; `onGap` is called when events may have been missed: after
 * every (re)connection, once the API's quiet period has passed, so the page reads its data again.
 * `onEnded` gets the API's reason when it ends the stream for good (the member lost access to it).
 */
export function useInboxEvents(organizationId: string, onEvent: (e: LiveEvent) => void, onGap: () => void, onState: (live: boolean) => void, onEnded: (detail: string) => void, onTyping: (e: TypingEvent) => void = () => {}) {
  const handlers = useRef({ onEvent, onGap, onState, onEnded, onTyping });
  handlers.current = { onEvent, onGap, onState, onEnded, onTyping };
  useEffect(() => {
    const source = new EventSource(`/api/v1/organizations/${organizationId}/conversation-events/`, { withCredentials: true });
    let timer: ReturnType<typeof setTimeout> | undefined;
    let connectedBefore = false;
    source.addEventListener("ready", () => {
      handlers.current.onState(true);
      if (connectedBefore) handlers.current.onGap();
      connectedBefore = true;
      clearTimeout(timer);
      timer = setTimeout(() => handlers.current.onGap(), CATCH_UP_MS);
    });
    source.addEventListener("error", (e) => {
      handlers.current.onState(false);
      // The API's own `event: error` (a message with data), not a lost connection: no reconnecting.
      if (e instanceof MessageEvent && typeof e.data === "string") {
        source.close();
        handlers.current.onEnded((JSON.parse(e.data) as { detail: string }).detail);
      }
    });
    for (const type of ["conversation.created", "conversation.updated", "message.created"] as const) {
      source.addEventListener(type, (e) => handlers.current.onEvent({ type, ...JSON.parse((e as MessageEvent<string>).data) }));
    }
    source.addEventListener("conversation.typing", (e) => handlers.current.onTyping(JSON.parse((e as MessageEvent<string>).data) as TypingEvent));
    return () => {
      clearTimeout(timer);
      source.close();
    };
  }, [organizationId]);
}
