/** What of a conversation the live events order by its messages: the latest message and the unread count it leaves. */
export interface MessageState {
  lastMessage: string | null;
  lastMessageCreatedAt: string | null;
  unreadCount: number;
}

const at = (s: MessageState) =>
  s.lastMessageCreatedAt ? Date.parse(s.lastMessageCreatedAt) : Number.NEGATIVE_INFINITY;

/**
 * The message state after a live event, kept monotonic in the events' order (docs/decisions.md, "Unread
 * counts and notifications"). Events reach a tab out of order (a visitor's `message.created` after the
 * read's `conversation.updated`): an event whose latest message is older than the one shown is late and
 * changes nothing; one with the same latest message has the lower count (only a read lowers a count
 * without a newer message, and only a new visitor's message raises one); a newer one is taken.
 */
export function messageStateAfter(shown: MessageState, event: MessageState): MessageState {
  const [was, is] = [at(shown), at(event)];
  const { lastMessage, lastMessageCreatedAt } = shown;
  if (is < was) return { lastMessage, lastMessageCreatedAt, unreadCount: shown.unreadCount };
  if (is === was)
    return { lastMessage, lastMessageCreatedAt, unreadCount: Math.min(shown.unreadCount, event.unreadCount) };
  return {
    lastMessage: event.lastMessage,
    lastMessageCreatedAt: event.lastMessageCreatedAt,
    unreadCount: event.unreadCount,
  };
}
