// The organization's live conversation events, one EventSource per tab (`conversation-events/`,
// with the session cookie): the shell keeps it open on every page for the unread counts and
// notifications (notifications.ts), and the inbox page listens on the same stream (pages/conversations/live.ts).
import type { Schemas } from "../api/client";
import type { LiveEvent, TypingEvent } from "../pages/conversations/live";

export interface LiveListener {
  onEvent: (e: LiveEvent) => void;
  /** Events may have been missed: after every reconnection, and once the API's quiet period has passed after `ready`.
   * */
  onGap: () => void;
  onState: (live: boolean) => void;
  /** The API ended the stream for good (the member lost access to it), with its reason. */
  onEnded: (detail: string) => void;
  /** Someone typing in a conversation (`conversation.typing`). */
  onTyping?: (e: TypingEvent) => void;
}

/** The API waits this long before publishing again for an organization it found unwatched (QUIET_MS). */
const CATCH_UP_MS = 2_500;
const TYPES = ["conversation.created", "conversation.updated", "message.created"] as const;

interface Stream {
  organizationId: string;
  source: EventSource;
  listeners: Set<LiveListener>;
  live: boolean;
  ended: string | null;
  timer?: ReturnType<typeof setTimeout>;
}

let stream: Stream | null = null;

function open(organizationId: string): Stream {
  const source = new EventSource(`/api/v1/organizations/${organizationId}/conversation-events/`, {
    withCredentials: true,
  });
  const s: Stream = { organizationId, source, listeners: new Set(), live: false, ended: null };
  const each = (fn: (l: LiveListener) => void) => [...s.listeners].forEach(fn);
  let connectedBefore = false;
  source.addEventListener("ready", () => {
    s.live = true;
    each((l) => l.onState(true));
    if (connectedBefore) each((l) => l.onGap());
    connectedBefore = true;
    clearTimeout(s.timer);
    s.timer = setTimeout(() => each((l) => l.onGap()), CATCH_UP_MS);
  });
  source.addEventListener("error", (e) => {
    s.live = false;
    each((l) => l.onState(false));
    // The API's own `event: error` (a message with data), not a lost connection: no reconnecting.
    if (e instanceof MessageEvent && typeof e.data === "string") {
      source.close();
      s.ended = (JSON.parse(e.data) as Schemas["StreamEndedEvent"]).detail;
      each((l) => l.onEnded(s.ended!));
    }
  });
  for (const type of TYPES) {
    source.addEventListener(type, (e) => {
      const event = { type, ...JSON.parse((e as MessageEvent<string>).data) } as LiveEvent;
      each((l) => l.onEvent(event));
    });
  }
  source.addEventListener("conversation.typing", (e) => {
    const event = JSON.parse((e as MessageEvent<string>).data) as TypingEvent;
    each((l) => l.onTyping?.(event));
  });
  return s;
}

function close(s: Stream) {
  clearTimeout(s.timer);
  s.source.close();
  if (stream === s) stream = null;
}

/**
 * Listens to the organization's live events; returns the function that stops listening. The tab's
 * one stream is opened for the first listener and closed after the last (or for another organization).
 * A listener that joins an open stream is told its state at once.
 */
export function listenLive(organizationId: string, listener: LiveListener): () => void {
  if (stream && stream.organizationId !== organizationId) close(stream);
  stream ??= open(organizationId);
  const s = stream;
  s.listeners.add(listener);
  if (s.live) listener.onState(true);
  if (s.ended) listener.onEnded(s.ended);
  return () => {
    s.listeners.delete(listener);
    if (!s.listeners.size) close(s);
  };
}
