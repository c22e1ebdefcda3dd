/** What of a conversation the live events order by its messages: the latest message and the unread count it leaves. */
export interface MessageState {
  lastMessage: string | null;
  lastMessageCreatedAt: string | null;
  unreadCount: number;
}

/** The time of the latest message: the API's timestamps are epoch milliseconds, as strings (`Date.parse` reads NaN). */
const at = (s: MessageState) => (s.lastMessageCreatedAt ? Number(s.lastMessageCreatedAt) : Number.NEGATIVE_INFINITY);

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

/**
 * The message state a record read from the API leaves on the row shown: the read's, unless its latest message is
 * older than the row's. Such an answer was overtaken on its way by a live event (a read that stayed suspect for all of
 * its tries, under load): taken as it was, it put the count back below a visitor's newer message until the next event.
 * A read of the same message is taken up or down, as the API counts it (unlike an event's, which only lowers it).
 */
export function messageStateRead(shown: MessageState, read: MessageState): MessageState {
  const { lastMessage, lastMessageCreatedAt, unreadCount } = at(read) < at(shown) ? shown : read;
  return { lastMessage, lastMessageCreatedAt, unreadCount };
}
