// A conversation's lifecycle events as outgoing webhook events (CONTRACT section 18, "Lifecycle
// events"; docs/decisions.md, "Lifecycle events for webhooks"): each change of status,
// progressStatus, assignee (and autoReplyEnabled beside them) is a row of conversation_events,
// written in the batch that makes the change, followed in that batch by one pending delivery per
// enabled webhook of the inbox that opted in (`conversationEvents`), the outbox of emit.ts.
import { sql } from "drizzle-orm";
import { prepared } from "../../db/prepared";
import { uuidv7 } from "../../lib/ids";
import type { Db } from "../../env";
import type { OutboxConfig } from "../conversation/outbox-config";
import { afterMessage, type ConversationChange, type ConversationRow, type MessageRow } from "../conversations";
import type { ChangeReason } from "../records/conversation-events";
import { lifecycleChanges, messageChangeReason } from "../conversation/inbox-events";

/** The delivery record's (and the payload's) event of a lifecycle change. */
export const CONVERSATION_UPDATED = "conversation.updated";

type Query = { toSQL(): { sql: string; params: unknown[] } };
/** A hand-written statement for `prepared`: `?1`, `?2`, ... take the named values in this order. */
const raw = (text: string, ...names: string[]): Query => ({
  toSQL: () => ({ sql: text, params: names.map((n) => sql.placeholder(n)) }),
});

/**
 * The event of an operator's change, computed by SQL from the conversation as it is when the batch
 * runs (a reply stored just before in the same write queue included), the new values as
 * `stateWrite` sets them (a state left out is unchanged): so it goes before that statement. Nothing is inserted when
 * nothing changes.
 */
const insertChangeEvent = prepared<{
  id: string;
  conversationId: string;
  status: string | null;
  progressStatus: string | null;
  assign: number;
  assigneeId: string | null;
  autoReplyEnabled: number | null;
  reason: ChangeReason;
  now: number;
  whileWaiting: number;
  whileAssignee: string | null;
}>(() =>
  raw(
    `insert into conversation_events (id, organization_id, conversation_id, inbox_id, changes, reason, created_at)
     select ?1, organization_id, id, inbox_id, changes, ?8, ?9 from (
       select c.organization_id, c.id, c.inbox_id, json_patch('{}', json_object(
         'status', case when ?3 is not null and c.status is not ?3 then json_array(c.status, ?3) end,
         'progressStatus', case when ?4 is not null and c.progress_status is not ?4
           then json_array(c.progress_status, ?4) end,
         'assignee', case when ?5 = 1 and c.assignee_id is not ?6 then json_array(c.assignee_id, ?6) end,
         'autoReplyEnabled', case when ?7 is not null and c.auto_reply_enabled is not ?7
           then json_array(json(iif(c.auto_reply_enabled, 'true', 'false')), json(iif(?7, 'true', 'false'))) end
       )) as changes
       from conversations c where c.id = ?2
         and (?10 = 0 or (c.progress_status = 'waiting_for_human' and c.assignee_id is null))
         and (?11 is null or c.assignee_id = ?11)
     ) where changes <> '{}'`,
    "id",
    "conversationId",
    "status",
    "progressStatus",
    "assign",
    "assigneeId",
    "autoReplyEnabled",
    "reason",
    "now",
    "whileWaiting",
    "whileAssignee",
  ),
);

/** An event whose changes are known (a handoff reply, whose before and after the turn holds). */
const insertKnownEvent = prepared<{
  id: string;
  organizationId: string;
  conversationId: string;
  inboxId: string;
  changes: string;
  reason: ChangeReason;
  now: number;
}>(() =>
  raw(
    `insert into conversation_events (id, organization_id, conversation_id, inbox_id, changes, reason, ` +
      `created_at) values (?1, ?2, ?3, ?4, ?5, ?6, ?7)`,
    "id",
    "organizationId",
    "conversationId",
    "inboxId",
    "changes",
    "reason",
    "now",
  ),
);

/** `uuidv7At` of emit.ts as text, the time in ms being the statement's `?2`. */
const UUIDV7_AT_2 = `lower(substr(printf('%012x', ?2), 1, 8) || '-' || substr(printf('%012x', ?2), 9, 4)
  || '-7' || substr(hex(randomblob(2)), 2) || '-' ||
  substr('89ab', 1 + (random() & 3), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))`;

/**
 * One pending delivery per enabled pushing webhook of the event's inbox that opted in, read as the
 * webhooks are at that instant; none when the event was not inserted (nothing changed). Returns the
 * new ids (see `createdDeliveries`). Names `webhooks`: for a caller that holds none of them (see
 * `assignmentEventWrites`); the others bind them (`insertBoundOutbox`).
 */
const insertEventOutbox = prepared<{ eventId: string; now: number }>(() =>
  raw(
    `insert into webhook_deliveries
       (id, organization_id, webhook_id, inbox_id, chatbot_id, message_id, conversation_event_id, conversation_id,
        event, status, attempt, scheduled_at, attempts, url, created_at)
     select ${UUIDV7_AT_2}, e.organization_id, w.id, w.inbox_id, c.chatbot_id, null, e.id, e.conversation_id,
       '${CONVERSATION_UPDATED}', 'pending', 1, ?2, 0, w.url, ?2
     from conversation_events e
     join conversations c on c.id = e.conversation_id
     join webhooks w on w.inbox_id = e.inbox_id and w.organization_id = e.organization_id
     where e.id = ?1 and w.is_enabled = 1 and w.conversation_events = 1 and w.direction in ('incoming', 'outgoing')
     returning id`,
    "eventId",
    "now",
  ),
);

/**
 * `insertEventOutbox` with the webhooks bound (`?3`: each `[id, organizationId, inboxId, url]` as JSON, those of
 * `eventWebhooks`) rather than read: the batch names the data plane's tables alone.
 */
const insertBoundOutbox = prepared<{ eventId: string; now: number; webhooks: string }>(() =>
  raw(
    `insert into webhook_deliveries
       (id, organization_id, webhook_id, inbox_id, chatbot_id, message_id, conversation_event_id, conversation_id,
        event, status, attempt, scheduled_at, attempts, url, created_at)
     select ${UUIDV7_AT_2}, e.organization_id, w.value ->> 0, w.value ->> 2, c.chatbot_id, null, e.id,
       e.conversation_id, '${CONVERSATION_UPDATED}', 'pending', 1, ?2, 0, w.value ->> 3, ?2
     from conversation_events e
     join conversations c on c.id = e.conversation_id
     join json_each(?3) w on w.value ->> 2 = e.inbox_id and w.value ->> 1 = e.organization_id
     where e.id = ?1
     returning id`,
    "eventId",
    "now",
    "webhooks",
  ),
);

/** The webhooks of an inbox's configuration (conversation/outbox-config.ts) that take its lifecycle events. */
const eventWebhooks = (config: OutboxConfig) =>
  JSON.stringify(
    config.webhooks
      .filter((w) => w.conversationEvents && (w.direction === "incoming" || w.direction === "outgoing"))
      .map((w) => [w.id, w.organizationId, w.inboxId, w.url]),
  );

/** The event's deliveries: bound from `config` when the caller holds it, else read with the event. */
const eventOutbox = (db: Db, eventId: string, now: number, config?: OutboxConfig) =>
  config
    ? insertBoundOutbox(db, { eventId, now, webhooks: eventWebhooks(config) })
    : insertEventOutbox(db, { eventId, now });

/** The statements recording an operator's change: put `before` ahead of the change's own write, `after` behind it. */
export function changeEventWrites(
  db: Db,
  conversationId: string,
  change: ConversationChange,
  reason: ChangeReason,
  config: OutboxConfig,
  now = Date.now(),
) {
  const id = uuidv7(now);
  return {
    before: insertChangeEvent(db, {
      id,
      conversationId,
      // Absent: an assignment, which leaves the state as it is.
      status: change.status ?? null,
      progressStatus: change.progressStatus ?? null,
      assign: change.assigneeId === undefined ? 0 : 1,
      assigneeId: change.assigneeId ?? null,
      autoReplyEnabled: change.autoReplyEnabled === undefined ? null : Number(change.autoReplyEnabled),
      reason,
      now,
      // A change made only while the conversation waits unassigned (a reply picking it up): no event when it is not.
      whileWaiting: change.whileWaiting ? 1 : 0,
      // A release of a member who leaves (whileAssignee): none when another holds it now.
      whileAssignee: change.whileAssignee ?? null,
    }),
    after: eventOutbox(db, id, now, config),
  };
}

/**
 * The event of an automatic assignment, for the batch after its conditional UPDATE: inserted only
 * when that UPDATE gave the conversation to `assigneeId` at `now` (it may have found no room).
 */
const insertAssignedEvent = prepared<{
  id: string;
  conversationId: string;
  assigneeId: string;
  changes: string;
  now: number;
}>(() =>
  raw(
    `insert into conversation_events (id, organization_id, conversation_id, inbox_id, changes, reason, created_at)
     select ?1, organization_id, id, inbox_id, ?4, 'auto_assignment', ?5 from conversations
     where id = ?2 and assignee_id = ?3 and updated_at = ?5`,
    "id",
    "conversationId",
    "assigneeId",
    "changes",
    "now",
  ),
);

/** The statements recording an automatic assignment of an unassigned conversation (round-robin), after the assigning
 * UPDATE in its batch; `config`: the conversation's inbox's (conversation/outbox-config.ts), else its webhooks are
 * read in the batch. */
export function assignmentEventWrites(
  db: Db,
  conversationId: string,
  assigneeId: string,
  now: number,
  config?: OutboxConfig,
): D1PreparedStatement[] {
  const id = uuidv7(now);
  const changes = JSON.stringify({ assignee: [null, assigneeId] });
  return [insertAssignedEvent(db, { id, conversationId, assigneeId, changes, now }), eventOutbox(db, id, now, config)];
}

/**
 * The statements recording what an assistant's handoff reply, a member's reply or a visitor's message does to its
 * conversation's lifecycle (`before`: as the message finds it; `after`: as it leaves it), for the batch storing it;
 * none when it changes none of it. `config`: the inbox's, read before the batch.
 */
export function messageEventWrites(
  db: Db,
  before: ConversationRow,
  message: MessageRow,
  config: OutboxConfig,
  after = afterMessage(before, message),
): D1PreparedStatement[] {
  const reason = messageChangeReason(message, before);
  const changes = lifecycleChanges(before, after);
  if (!reason || !Object.keys(changes).length) return [];
  const id = uuidv7(message.createdAt);
  const event = {
    id,
    organizationId: before.organizationId,
    conversationId: before.id,
    inboxId: before.inboxId,
    changes: JSON.stringify(changes),
    reason,
    now: message.createdAt,
  };
  return [insertKnownEvent(db, event), eventOutbox(db, id, message.createdAt, config)];
}
