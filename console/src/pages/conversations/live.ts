import { useEffect, useRef } from "preact/hooks";
import { listenLive } from "../../shell/live-stream";
import type { Conversation, Message } from "./api";

/** A conversation as the live stream carries it: its state and the ids of what it belongs to. */
export type LiveConversation = Pick<
  Conversation,
  | "id"
  | "title"
  | "status"
  | "progressStatus"
  | "autoReplyEnabled"
  | "lastMessage"
  | "lastMessageCreatedAt"
  | "createdAt"
  | "unreadCount"
  | "waitingSince"
  | "csat"
> & {
  team: { id: string } | null;
  inbox: { id: string };
  chatbot: { id: string } | null;
  contact: { id: string } | null;
  assignee: { id: string } | null;
};

/** Each lifecycle field that changed, as `[before, after]`, and why (CONTRACT section 18). */
export type LiveChanges = Partial<{
  status: [string, string];
  progressStatus: [string, string];
  assignee: [string | null, string | null];
  autoReplyEnabled: [boolean, boolean];
}>;

export type LiveEvent =
  | { type: "conversation.created"; conversation: LiveConversation }
  | { type: "conversation.updated"; conversation: LiveConversation; changes?: LiveChanges; reason?: string }
  | { type: "message.created"; conversation: LiveConversation; message: Message };

/** Someone typing in a conversation (`conversation.typing`): nothing stored, the indicator only. */
export interface TypingEvent {
  conversationId: string;
  typing: boolean;
  sender: { type: "contact" | "user"; id: string; name: string };
}

/**
 * The organization's live conversation events (the tab's one stream, shell/live-stream.ts).
 * `onEvent` gets each; `onGap` is called when events may have been missed: after every
 * (re)connection, once the API's quiet period has passed, so the page reads its data again.
 * `onEnded` gets the API's reason when it ends the stream for good (the member lost access to it).
 */
export function useInboxEvents(
  organizationId: string,
  onEvent: (e: LiveEvent) => void,
  onGap: () => void,
  onState: (live: boolean) => void,
  onEnded: (detail: string) => void,
  onTyping: (e: TypingEvent) => void = () => {},
) {
  const handlers = useRef({ onEvent, onGap, onState, onEnded, onTyping });
  handlers.current = { onEvent, onGap, onState, onEnded, onTyping };
  useEffect(
    () =>
      listenLive(organizationId, {
        onEvent: (e) => handlers.current.onEvent(e),
        onGap: () => handlers.current.onGap(),
        onState: (live) => handlers.current.onState(live),
        onEnded: (detail) => handlers.current.onEnded(detail),
        onTyping: (e) => handlers.current.onTyping(e),
      }),
    [organizationId],
  );
}
