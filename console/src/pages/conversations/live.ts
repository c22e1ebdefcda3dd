import { useEffect, useRef } from "preact/hooks";
import { listenLive } from "../../shell/live-stream";
import type { Schemas } from "../../api/client";

/** A conversation as the live stream carries it: its state and the ids of what it belongs to. */
export type LiveConversation = Schemas["LiveConversation"];

/** Each lifecycle field that changed, as `[before, after]` (CONTRACT section 18). */
export type LiveChanges = Schemas["LifecycleChanges"];

/** An event of the stream, by its name (`type`) with its `data`. */
export type LiveEvent =
  | ({ type: "conversation.created" } & Schemas["ConversationCreatedEvent"])
  | ({ type: "conversation.updated" } & Schemas["ConversationUpdatedEvent"])
  | ({ type: "message.created" } & Schemas["MessageCreatedEvent"]);

/** Someone typing in a conversation (`conversation.typing`): nothing stored, the indicator only. */
export type TypingEvent = Schemas["ConversationTypingEvent"];

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
