// Automatic assignment (docs/decisions.md, "Assignment"): a conversation of a round-robin inbox
// that is queued for a person goes to one of its team's online agents who may serve it (`mayServe`) with room below
// their capacity, the one assigned longest ago first. Its team is the conversation's own when it has one (given to a
// team, it is that team's to take), else the inbox's; with neither, every member who may serve. The conversation
// stays queued, waiting for that agent to answer or take it.
import { and, asc, eq, inArray, isNull, lt, ne, or, sql } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { conversations, groupMembers, inboxes, members, type InboxAssignment } from "../../db/schema";
import { inList } from "../../lib/sql";
import { stateWrite, type ConversationRow } from "../conversations";
import { lifecycleEvent, publishInboxEvents, type InboxEvent } from "../conversation/inbox-events";
import { assignmentOf, liveAssignment, mayServe, purgeTeamIfGone } from "./settings";
import { firstAcrossParts, sqlOrder } from "../shards/parts-merge";
import { conversationDb, dataParts } from "../shards/parts";
import { batch, prepared, ph } from "../../db/prepared";
import { assignmentEventWrites, changeEventWrites } from "../webhooks/conversation-events";
import { createdDeliveries, enqueueDeliveries } from "../webhooks/emit";
import { outboxConfig, type OutboxConfig } from "../conversation/outbox-config";
import { logWarn } from "../../lib/log";

/** Waiting conversations looked at when an agent comes online. */
const WAITING_BATCH = 50;

interface Agent {
  memberId: string;
  userId: string;
  capacity: number | null;
}

/** The team whose members take a conversation: its own (an operator gave it to that team), else its inbox's. */
const poolTeam = (conversation: Pick<ConversationRow, "teamId">, assignment: InboxAssignment) =>
  conversation.teamId ?? assignment.teamId;

/** Who may be given a conversation of team `teamId` (null: none): online, allowed to serve it and in the team, longest
 * since their last assignment first. */
function eligibleAgents(db: Db, organizationId: string, teamId: string | null, onlyMember?: string): Promise<Agent[]> {
  const inTeam = teamId
    ? inArray(
        members.id,
        db.select({ id: groupMembers.memberId }).from(groupMembers).where(eq(groupMembers.groupId, teamId)),
      )
    : undefined;
  return (
    db
      .select({ memberId: members.id, userId: members.userId, capacity: members.capacity })
      .from(members)
      .where(
        and(
          eq(members.organizationId, organizationId),
          eq(members.availability, "online"),
          mayServe(db),
          inTeam,
          onlyMember ? eq(members.id, onlyMember) : undefined,
        ),
      )
      // SQLite sorts nulls first: an agent never assigned comes before everyone.
      .orderBy(asc(members.lastAssignedAt), asc(members.createdAt))
  );
}

const assignIfRoom = prepared<{
  id: string;
  organizationId: string;
  userId: string;
  teamId: string | null;
  capacity: number;
  now: number;
}>((db) =>
  db
    .update(conversations)
    .set({
      assigneeId: ph("userId"),
      teamId: sql`coalesce(${conversations.teamId}, ${ph("teamId")})`,
      updatedAt: ph("now"),
    })
    .where(
      and(
        eq(conversations.id, ph("id")),
        eq(conversations.status, "queued"),
        isNull(conversations.assigneeId),
        sql`(select count(*) from ${conversations} as served
          where served.organization_id = ${ph("organizationId")}
            and served.assignee_id = ${ph("userId")}
            and served.status <> 'resolved') < ${ph("capacity")}`,
      ),
    ),
);

/** The organization's conversations `userId` holds: assigned to them and not resolved. */
export const heldBy = (organizationId: string, userId: string) =>
  and(
    eq(conversations.organizationId, organizationId),
    eq(conversations.assigneeId, userId),
    ne(conversations.status, "resolved"),
  );

/**
 * What an agent serves in the organization's other parts (`others`), taken off their capacity in the conversation's
 * part: read while the agent is held (`holdAgent`), so no assignment in another part comes between.
 */
async function servedElsewhere(others: Db[], organizationId: string, userId: string): Promise<number> {
  const counts = await Promise.all(
    others.map((data) =>
      data.select({ n: sql<number>`count(*)` }).from(conversations).where(heldBy(organizationId, userId)),
    ),
  );
  return counts.reduce((sum, [row]) => sum + (row?.n ?? 0), 0);
}

/** How long one assignment may hold an agent, how long another waits for it, and how often it looks again. */
const HOLD_MS = 5_000;
const HOLD_WAIT_MS = 2_000;
const HOLD_RETRY_MS = 20;

/**
 * Holds the agent's places for one assignment (`members.assigning_until`, on the control plane every part shares):
 * the held-until moment, or null when another assignment held them for all of HOLD_WAIT_MS (the agent is then passed
 * over, as a full one is). The wall clock, not the caller's: this is a lock between requests running now. A holder
 * that dies frees them HOLD_MS on.
 */
async function holdAgent(db: Db, memberId: string): Promise<number | null> {
  const deadline = Date.now() + HOLD_WAIT_MS;
  for (;;) {
    const wall = Date.now();
    const [held] = await db
      .update(members)
      .set({ assigningUntil: wall + HOLD_MS })
      .where(and(eq(members.id, memberId), or(isNull(members.assigningUntil), lt(members.assigningUntil, wall))))
      .returning({ until: members.assigningUntil });
    if (held) return held.until;
    if (wall >= deadline) {
      logWarn("agent held by another assignment; passed over", { memberId });
      return null;
    }
    await new Promise((resolve) => setTimeout(resolve, HOLD_RETRY_MS));
  }
}

/**
 * Assigns the conversation to `agent` if it is still queued and unassigned and the agent serves fewer than their
 * capacity: one conditional UPDATE in the conversation's part (`data`, one of the organization's `parts`), so two
 * assignments at once in a part never exceed it (D1 runs one statement at a time). Where the organization has other
 * parts, the agent is held meanwhile (`holdAgent`) and what they serve there is taken off their capacity, so the
 * same holds across parts (docs/decisions.md, "One organization over several parts"). True when it did; the agent's
 * `lastAssignedAt` (control plane, `db`) is then `now`.
 */
async function tryAssign(
  db: Db,
  parts: Db[],
  data: Db,
  conversation: Pick<ConversationRow, "id" | "organizationId" | "inboxId">,
  agent: Agent,
  assignment: InboxAssignment,
  now: number,
  deliveries: string[],
): Promise<boolean> {
  const others = parts.filter((part) => part !== data);
  const capacity = agent.capacity ?? assignment.capacity;
  const assign = (room: number) => assignIn(db, data, conversation, agent, assignment, room, now, deliveries);
  if (!others.length) return assign(capacity);
  const held = await holdAgent(db, agent.memberId);
  if (held === null) return false;
  try {
    return await assign(capacity - (await servedElsewhere(others, conversation.organizationId, agent.userId)));
  } finally {
    await db
      .update(members)
      .set({ assigningUntil: null })
      .where(and(eq(members.id, agent.memberId), eq(members.assigningUntil, held)));
  }
}

/** `tryAssign`'s write in the conversation's part, with `capacity` places for the agent there. */
async function assignIn(
  db: Db,
  data: Db,
  conversation: Pick<ConversationRow, "id" | "organizationId" | "inboxId">,
  agent: Agent,
  assignment: InboxAssignment,
  capacity: number,
  now: number,
  deliveries: string[],
): Promise<boolean> {
  const assign = assignIfRoom(data, {
    id: conversation.id,
    organizationId: conversation.organizationId,
    userId: agent.userId,
    teamId: assignment.teamId,
    capacity,
    now,
  });
  // The lifecycle event for the webhooks that opt in, in the same batch on the data plane: recorded only if the
  // UPDATE assigned it, its outbox bound from the inbox's webhooks read before (conversation/outbox-config.ts).
  const config = await outboxConfig(db, conversation.inboxId);
  const [result, , outbox] = await batch(data, [
    assign,
    ...assignmentEventWrites(data, conversation.id, agent.userId, now, config),
  ]);
  if (!result.meta.changes) return false;
  deliveries.push(...createdDeliveries(outbox));
  // The inbox's team, read before the write, may have been deleted since.
  await purgeTeamIfGone(db, data, conversation.organizationId, assignment.teamId);
  // The member's row is written after the conversation, and only while they may still be chosen: a removal (or a loss
  // of `conversation.manage`) that came after the agents were read releases what they hold once it is made, and a
  // write that landed after that release finds the row gone (or the right lost) here, so it is taken back. Not one
  // statement: the member is on the control plane, the conversation in its part.
  const [chosen] = await db
    .update(members)
    .set({ lastAssignedAt: now })
    .where(and(eq(members.id, agent.memberId), mayServe(db)))
    .returning({ id: members.id });
  if (chosen) return true;
  await takeBack(data, conversation.id, agent.userId, config, now, deliveries);
  return false;
}

/**
 * `assignIn`'s write undone, for an agent no longer to be chosen when it landed: unassigned again (reason
 * `auto_assignment`), only while still theirs (the removal's own release may have come first), with its lifecycle
 * event in the same batch. On D1 directly, as the assignment was.
 */
async function takeBack(
  data: Db,
  conversationId: string,
  userId: string,
  config: OutboxConfig,
  now: number,
  deliveries: string[],
) {
  const change = { assigneeId: null, whileAssignee: userId };
  const event = changeEventWrites(data, conversationId, change, "auto_assignment", config, now);
  const [, , outbox] = await batch(data, [event.before, stateWrite(data, conversationId, change), event.after]);
  deliveries.push(...createdDeliveries(outbox));
}

const readRow = async (data: Db, id: string) =>
  (await data.select().from(conversations).where(eq(conversations.id, id)))[0]!;

/**
 * A conversation just queued for a person: assigned to the next available agent when its inbox is
 * round-robin. Returns the `conversation.updated` event (reason `auto_assignment`), null when it
 * stays unassigned (manual inbox, nobody available, assigned or served already). The conversation is read on its
 * organization's data plane (`data`), its inbox's assignment and the agents on the control plane (`db`).
 */
export async function autoAssign(
  db: Db,
  data: Db,
  conversationId: string,
  now = Date.now(),
  deliveries: string[] = [],
  /** Every part of the organization's data plane, `data` among them. */
  parts: Db[] = [data],
): Promise<InboxEvent | null> {
  const [before] = await data.select().from(conversations).where(eq(conversations.id, conversationId));
  if (!before) return null;
  const [inbox] = await db.select({ assignment: liveAssignment }).from(inboxes).where(eq(inboxes.id, before.inboxId));
  if (!inbox) return null;
  const assignment = assignmentOf(inbox.assignment);
  if (assignment.mode !== "round_robin" || before.status !== "queued" || before.assigneeId) return null;
  for (const agent of await eligibleAgents(db, before.organizationId, poolTeam(before, assignment))) {
    if (await tryAssign(db, parts, data, before, agent, assignment, now, deliveries))
      return lifecycleEvent(before, await readRow(data, before.id), "auto_assignment");
  }
  return null;
}

/**
 * The oldest queued conversations no one holds, of the round-robin inboxes `inboxIds`, on one data part: a query not
 * yet run, which sorts only the queued conversations (an index on the status leads to them; never a walk of the
 * organization's: test/services/conversation-list-plans.test.ts).
 */
export const waitingQueueIn = (data: Db, organizationId: string, inboxIds: string[], except?: string) =>
  data
    .select()
    .from(conversations)
    .where(
      and(
        eq(conversations.organizationId, organizationId),
        eq(conversations.status, "queued"),
        isNull(conversations.assigneeId),
        except ? ne(conversations.id, except) : undefined,
        inList(conversations.inboxId, inboxIds),
      ),
    )
    .orderBy(asc(conversations.waitingSince), asc(conversations.id))
    .limit(WAITING_BATCH);

/**
 * A member just came online (or has a place free again): the oldest waiting unassigned conversations
 * of the round-robin inboxes they serve, but `except`, are assigned to them, up to their capacity.
 * The conversations are read on each of the organization's data parts (`parts`) and merged; each is assigned on
 * the part it was read on. Returns the events, in that order.
 */
export async function assignWaiting(
  db: Db,
  parts: Db[],
  organizationId: string,
  memberId: string,
  now = Date.now(),
  deliveries: string[] = [],
  except?: string,
): Promise<InboxEvent[]> {
  // The round-robin inboxes first, then their conversations: two reads, as the two will live in two databases
  // (docs/scale.md §5 step 4).
  const roundRobin = await db
    .select({ id: inboxes.id, assignment: liveAssignment })
    .from(inboxes)
    .where(
      and(
        eq(inboxes.organizationId, organizationId),
        sql`json_extract(${inboxes.assignment}, '$.mode') = 'round_robin'`,
      ),
    );
  if (!roundRobin.length) return [];
  const assignmentOfInbox = new Map(roundRobin.map((i) => [i.id, i.assignment]));
  const waitingIn = async (data: Db) =>
    (await waitingQueueIn(data, organizationId, [...assignmentOfInbox.keys()], except)).map((conversation) => ({
      conversation,
      data,
    }));
  const waiting = await firstAcrossParts(
    parts,
    waitingIn,
    sqlOrder((w) => [w.conversation.waitingSince, w.conversation.id]),
    WAITING_BATCH,
  );
  const events: InboxEvent[] = [];
  const eligible = new Map<string, Agent | null>();
  for (const { conversation, data } of waiting) {
    const assignment = assignmentOf(assignmentOfInbox.get(conversation.inboxId)!);
    const team = poolTeam(conversation, assignment);
    const key = team ?? "";
    if (!eligible.has(key)) eligible.set(key, (await eligibleAgents(db, organizationId, team, memberId))[0] ?? null);
    const agent = eligible.get(key);
    if (!agent || !(await tryAssign(db, parts, data, conversation, agent, assignment, now, deliveries))) continue;
    const event = lifecycleEvent(conversation, await readRow(data, conversation.id), "auto_assignment");
    if (event) events.push(event);
  }
  return events;
}

/** `autoAssign`, told to the live inbox and to the webhooks that opt in to lifecycle events. */
export async function autoAssignAndPublish(
  env: Bindings,
  db: Db,
  organizationId: string,
  conversationId: string,
  now = Date.now(),
): Promise<void> {
  const deliveries: string[] = [];
  const [parts, data] = await Promise.all([
    dataParts(env, organizationId),
    conversationDb(env, organizationId, conversationId),
  ]);
  const event = await autoAssign(db, data, conversationId, now, deliveries, parts);
  if (event) await publishInboxEvents(env, organizationId, event);
  // Should the queue refuse, the housekeeping cron hands pending deliveries over again.
  if (deliveries.length) await enqueueDeliveries(env, deliveries, organizationId);
}

/** Whether `before` held a place of its assignee's capacity that `after` no longer holds. */
const placeFreed = (before: ConversationRow, after: ConversationRow) =>
  before.assigneeId !== null &&
  before.status !== "resolved" &&
  (after.assigneeId !== before.assigneeId || after.status === "resolved");

/**
 * An operator's change (resolve, hand off, hand back, take over, assign) as automatic assignment sees it.
 * An assignee it freed a place of (resolved, handed back, reassigned, unassigned, taken over by another)
 * pulls the oldest waiting conversations of their round-robin inboxes up to their capacity, as coming
 * online does, but not the one just taken from them. Then a conversation it left queued for a person
 * without an assignee (handed off, or unassigned while waiting) goes round-robin as an assistant's
 * handoff does. Told to the live inbox and to the webhooks that opt in.
 */
export async function assignAfterChange(
  env: Bindings,
  db: Db,
  before: ConversationRow,
  after: ConversationRow,
  now = Date.now(),
): Promise<void> {
  const deliveries: string[] = [];
  const events: InboxEvent[] = [];
  const [parts, data] = await Promise.all([
    dataParts(env, before.organizationId),
    conversationDb(env, before.organizationId, after.id),
  ]);
  if (placeFreed(before, after)) {
    const [member] = await db
      .select({ id: members.id })
      .from(members)
      .where(and(eq(members.organizationId, before.organizationId), eq(members.userId, before.assigneeId!)));
    if (member) {
      events.push(...(await assignWaiting(db, parts, before.organizationId, member.id, now, deliveries, after.id)));
    }
  }
  const nowWaiting = after.status === "queued" && !after.assigneeId;
  if (nowWaiting && (before.status !== "queued" || before.assigneeId)) {
    const event = await autoAssign(db, data, after.id, now, deliveries, parts);
    if (event) events.push(event);
  }
  if (events.length) await publishInboxEvents(env, before.organizationId, ...events);
  // Should the queue refuse, the housekeeping cron hands pending deliveries over again.
  if (deliveries.length) await enqueueDeliveries(env, deliveries, before.organizationId);
}
