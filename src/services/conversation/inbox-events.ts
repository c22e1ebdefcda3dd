import type { z } from "@hono/zod-openapi";
import type { Bindings } from "../../env";
import { ms } from "../../lib/time";
import { TtlCache } from "../../lib/ttl-cache";
import type { ConversationRow, MessageRow } from "../conversations";
import type { MessageEffect } from "./effects";
import type { MessageRecord } from "../records/messages";
import { csatRecord } from "../records/conversations";
import type {
  ChangeReason,
  ConversationCreatedEvent,
  ConversationUpdatedEvent,
  LifecycleChanges,
  LiveConversation,
  MessageCreatedEvent,
  TypingEvent,
} from "../records/conversation-events";

export type InboxEvent =
  | { event: "conversation.created"; data: z.output<typeof ConversationCreatedEvent> }
  | { event: "conversation.updated"; data: z.output<typeof ConversationUpdatedEvent> }
  | { event: "message.created"; data: z.output<typeof MessageCreatedEvent> }
  | { event: "conversation.typing"; data: TypingEvent };

/** The conversation as the live stream carries it, from its row alone (no read): `LiveConversation`. */
export const liveConversationRecord = (row: ConversationRow): LiveConversation => ({
  id: row.id,
  inbox: { id: row.inboxId },
  chatbot: row.chatbotId ? { id: row.chatbotId } : null,
  contact: row.contactId ? { id: row.contactId } : null,
  assignee: row.assigneeId ? { id: row.assigneeId } : null,
  team: row.teamId ? { id: row.teamId } : null,
  waitingSince: ms(row.waitingSince),
  title: row.title,
  status: row.status,
  progressStatus: row.progressStatus,
  autoReplyEnabled: row.autoReplyEnabled,
  lastMessage: row.lastMessage,
  lastMessageCreatedAt: ms(row.lastMessageAt),
  unreadCount: row.unreadCount,
  createdAt: ms(row.createdAt)!,
  csat: csatRecord(row),
});

export const conversationEvent = (
  event: "conversation.created" | "conversation.updated",
  row: ConversationRow,
): InboxEvent => ({ event, data: { conversation: liveConversationRecord(row) } });

/** What of status, progressStatus, assignee and autoReplyEnabled differs between two states of a conversation. */
export function lifecycleChanges(before: ConversationRow, after: ConversationRow): LifecycleChanges {
  const changes: LifecycleChanges = {};
  if (before.status !== after.status) changes.status = [before.status, after.status];
  if (before.progressStatus !== after.progressStatus)
    changes.progressStatus = [before.progressStatus, after.progressStatus];
  if (before.assigneeId !== after.assigneeId) changes.assignee = [before.assigneeId, after.assigneeId];
  if (before.autoReplyEnabled !== after.autoReplyEnabled)
    changes.autoReplyEnabled = [before.autoReplyEnabled, after.autoReplyEnabled];
  return changes;
}

/** `conversation.updated` with what changed and why; null when nothing did. */
export function lifecycleEvent(
  before: ConversationRow,
  after: ConversationRow,
  reason: ChangeReason,
): InboxEvent | null {
  const changes = lifecycleChanges(before, after);
  return Object.keys(changes).length
    ? { event: "conversation.updated", data: { conversation: liveConversationRecord(after), changes, reason } }
    : null;
}
/**
 * Why storing `message` may change its conversation's lifecycle (`before`: as the message finds it):
 * the assistant's handoff reply (its reason), a member's public reply, which serves a queued
 * conversation (`operator`), or a visitor's message that moves its state (reopening a resolved one, giving one a
 * person served back to the assistant): `visitor_request`, the contract's one reason naming the visitor's doing
 * (docs/decisions.md, "Lifecycle events for webhooks"). A new conversation's first message starts it, no change:
 * `conversation.created` tells of it.
 */
export function messageChangeReason(
  message: Pick<MessageRow, "senderType" | "private" | "contentPayload">,
  before: Pick<ConversationRow, "progressStatus">,
): ChangeReason | null {
  if (message.senderType === "user") return message.private ? null : "operator";
  if (message.senderType === "contact") return before.progressStatus === "open" ? null : "visitor_request";
  if (message.senderType !== "chatbot") return null;
  return (message.contentPayload as { handoff?: { reason?: ChangeReason } } | null)?.handoff?.reason ?? null;
}

export const messageEvent = (row: ConversationRow, message: MessageRecord): InboxEvent => ({
  event: "message.created",
  data: { conversation: liveConversationRecord(row), message },
});

/** The organization's event hub (durable-objects/inbox-events.ts). */
export const inboxEventsObject = (env: Bindings, organizationId: string) =>
  env.INBOX_EVENTS.get(env.INBOX_EVENTS.idFromName(organizationId));

/**
 * How long an isolate that heard from an organization's hub that no stream is open publishes
 * nothing more for it. Publishing costs the reply's path a call to another object (~1 ms of CPU on
 * the local runtime, measured by `npm run bench -- completions`), and most traffic has no one
 * watching; a stream opened meanwhile may miss that isolate's events for this long, so clients read
 * the list again once this has passed after `ready` (docs/decisions.md, "Live inbox").
 */
export const QUIET_MS = 2_000;
const quiet = new TtlCache<string>(QUIET_MS);
/** When a stream last opened here, by organization: a "none open" answer to a call made before then is stale. */
const opened = new TtlCache<number>(QUIET_MS);

/** A stream is opening here: this isolate publishes again at once. */
export function streamOpened(organizationId: string, now = Date.now()) {
  opened.set(organizationId, now, now);
  quiet.deleteWhere((org) => org === organizationId);
}

/** False while this isolate knows no inbox stream of the organization is open: its events need not even be built. */
export const inboxMayListen = (organizationId: string) => !quiet.get(organizationId);

/**
 * Hands events to the organization's hub, which fans them out to every open inbox stream, on any
 * isolate. Never awaited on a reply's path (pass the promise to `waitUntil`); a failed call only
 * costs live viewers an update (clients read the list again when their stream reconnects). Each call
 * is its own hand-over: a promise shared between calls would carry one request's I/O into another's
 * (requests, queue events and conversation objects share an isolate), which workerd refuses.
 */
export function publishInboxEvents(env: Bindings, organizationId: string, ...events: InboxEvent[]): Promise<void> {
  if (!events.length || !inboxMayListen(organizationId)) return Promise.resolve();
  const asked = Date.now();
  return inboxEventsObject(env, organizationId)
    .publish(events)
    .then((streams) => {
      if (streams === 0 && !((opened.get(organizationId) ?? -1) >= asked)) quiet.set(organizationId, organizationId);
    })
    .catch((err) =>
      console.error(JSON.stringify({ level: "warn", message: "inbox events not published", error: String(err) })),
    );
}

/**
 * The live inbox of stored messages: `conversation.created` for a batch that created the
 * conversation, then `message.created` per message, in one hand-over to the hub (never waited for;
 * nothing while no one watches, QUIET_MS).
 */
export const liveInboxEffect: MessageEffect = {
  name: "live inbox",
  // The team's own view: a private note appears in the transcript as it is written (the conversation it carries is
  // unchanged by it).
  notes: true,
  stored({ env, waitUntil, organizationId, created, messages }) {
    if (!inboxMayListen(organizationId)) return;
    const events: InboxEvent[] = [];
    if (created) events.push(conversationEvent("conversation.created", created));
    for (const m of messages) {
      events.push(messageEvent(m.conversation, m.record));
      // A handoff reply queues the conversation, a member's reply serves it, a visitor's moves it, in its own batch:
      // that change is an event of its own.
      const reason = messageChangeReason(m.message, m.before);
      const changed = reason ? lifecycleEvent(m.before, m.conversation, reason) : null;
      if (changed) events.push(changed);
    }
    waitUntil(publishInboxEvents(env, organizationId, ...events));
  },
};
