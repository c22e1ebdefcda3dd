import { and, eq, sql, type SQL } from "drizzle-orm";
import type { Bindings, Db } from "../env";
import { conversations, messages } from "../db/schema";
import { batch, prepared, preparedInsert, sqlStatement } from "../db/prepared";
import { contactCopyWrites } from "./shards/contact-copies";
import { conversationDb } from "./shards/parts";
import { uuidv7 } from "../lib/ids";
import { countWords } from "./llm/text";
import { currentMonth } from "./organizations";
import { usageIncrement } from "./usage";
import { handsOff } from "./conversation/handoff";
import { type FiguredAssistant, messageFigureWrites, type Question, stretchWrites } from "./statistics/message-figures";
import { logError } from "../lib/log";
import { clip } from "../lib/text";
import { purgeLinksGone } from "./conversation/created-links";

export type ConversationRow = typeof conversations.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;
export type NewMessage = typeof messages.$inferInsert;

/** A new conversation's row as the database will hold it (defaults of the schema). */
export function newConversation(
  values: {
    organizationId: string;
    inboxId: string;
    chatbotId: string | null;
    contactId: string | null;
    title?: string;
    createdById?: string | null;
    isTest?: boolean;
  },
  id = uuidv7(),
  now = Date.now(),
): ConversationRow {
  return {
    id,
    ...values,
    title: values.title ?? "",
    createdById: values.createdById ?? null,
    isTest: values.isTest ?? false,
    type: "individual",
    status: "open",
    progressStatus: "open",
    autoReplyEnabled: true,
    assigneeId: null,
    teamId: null,
    waitingSince: null,
    csatRating: null,
    csatComment: null,
    csatAt: null,
    lastMessage: null,
    lastMessageAt: null,
    unreadCount: 0,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * `waitingSince` as a write leaves it (docs/decisions.md, "Assignment"): set when the conversation
 * becomes queued, kept while it stays queued, cleared once it is not (served, resolved, handed back).
 * `status` is the status the write leaves; `now` the time it is queued at. See `waitingAfter` for the row.
 */
const waitingSinceAfter = (status: SQL, now: SQL) =>
  sql`case when ${status} = 'queued' then coalesce(${conversations.waitingSince}, ${now}) else null end`;

/** The same rule on a row: `waitingSince` once `row` has taken `status` at `now`. */
export const waitingAfter = (
  row: Pick<ConversationRow, "waitingSince">,
  status: ConversationRow["status"],
  now: number,
): number | null => (status === "queued" ? (row.waitingSince ?? now) : null);

// The pipeline's own writes leave the caches right: a remembered conversation row is brought up to
// date by its object (durable-objects/conversation.ts, #load) and by the turn's caller.
const insertConversation = preparedInsert(conversations, { keepsCaches: true });
const insertMessage = preparedInsert(messages);

/**
 * A message stored by a writer other than its conversation's object (the worker's first turn,
 * services/conversation/first-turn.ts): D1 `messages` holds it until the object copies it into its own store and
 * deletes it here (durable-objects/conversation-store.ts, MessageStore.sync; docs/decisions.md, "Messages in the
 * conversation object"). The object's own messages never come to D1.
 */
export const handedOverMessage = (db: Db, row: ReturnType<typeof messageRow>) => insertMessage(db, row);
/** A message's effects on its conversation; `title`, `status`, `progressStatus` and `autoReplyEnabled` are left as they
 * are when null. */
const updateAfterMessage = prepared<{
  id: string;
  lastMessage: string;
  lastMessageAt: number;
  unread: number;
  title: string | null;
  status: string | null;
  progressStatus: string | null;
  autoReplyEnabled: number | null;
  updatedAt: number;
}>(
  (db) =>
    db
      .update(conversations)
      .set({
        lastMessage: sql`${sql.placeholder("lastMessage")}`,
        lastMessageAt: sql`${sql.placeholder("lastMessageAt")}`,
        unreadCount: sql`${conversations.unreadCount} + ${sql.placeholder("unread")}`,
        title: sql`coalesce(${sql.placeholder("title")}, ${conversations.title})`,
        status: sql`coalesce(${sql.placeholder("status")}, ${conversations.status})`,
        progressStatus: sql`coalesce(${sql.placeholder("progressStatus")}, ${conversations.progressStatus})`,
        autoReplyEnabled: sql`coalesce(${sql.placeholder("autoReplyEnabled")}, ${conversations.autoReplyEnabled})`,
        waitingSince: waitingSinceAfter(
          sql`coalesce(${sql.placeholder("status")}, ${conversations.status})`,
          sql`${sql.placeholder("lastMessageAt")}`,
        ),
        updatedAt: sql`${sql.placeholder("updatedAt")}`,
      })
      .where(eq(conversations.id, sql.placeholder("id"))),
  { keepsCaches: true },
);
/** The words of an assistant's replies added to its count (the assistant's `totalWordsCount`). */
const ADD_CHATBOT_WORDS =
  "INSERT INTO chatbot_words (chatbot_id, organization_id, words) VALUES (?1, ?2, ?3) " +
  "ON CONFLICT (chatbot_id) DO UPDATE SET words = words + excluded.words";
const addChatbotWords = (db: Db, conversation: Pick<ConversationRow, "organizationId">, id: string, words: number) =>
  sqlStatement(db, ADD_CHATBOT_WORDS).bind(id, conversation.organizationId, words);

/** Statements creating a conversation (and counting it in the month's usage), for one batch (`batch` in
 * db/prepared.ts). */
export function conversationInserts(db: Db, row: ConversationRow): D1PreparedStatement[] {
  return [insertConversation(db, row), usageIncrement(db, row.organizationId, { conversations: 1 }, row.createdAt)];
}

/**
 * What `conversationInserts` and then `handedOverMessage` and `messageWrites` of each of `rows` store, for a
 * conversation stored together with its first messages (services/conversation/first-turn.ts), in fewer statements: the
 * row inserted as those messages leave it (`afterMessage`; it is this turn's alone, so nothing else can
 * have changed it), one usage upsert when the words fall in the conversation's month. `assistant`: the conversation's,
 * as the caller read it (see messageFigureWrites).
 */
export function newConversationWrites(
  db: Db,
  conversation: ConversationRow,
  rows: ReturnType<typeof messageRow>[],
  assistant: FiguredAssistant | null,
): D1PreparedStatement[] {
  const row = {
    ...rows.reduce(afterMessage, conversation),
    updatedAt: rows.length ? Date.now() : conversation.updatedAt,
  };
  const words = rows.reduce((n, m) => n + m.wordsCount, 0);
  const last = rows.at(-1)?.createdAt ?? conversation.createdAt;
  const sameMonth = currentMonth(conversation.createdAt) === currentMonth(last);
  const statements = [
    insertConversation(db, row),
    usageIncrement(
      db,
      conversation.organizationId,
      { conversations: 1, words: sameMonth ? words : 0 },
      conversation.createdAt,
    ),
  ];
  let question: Question | null = null;
  for (const message of rows) {
    statements.push(
      handedOverMessage(db, message),
      ...messageFigureWrites(db, conversation, message, question, assistant),
      ...stretchWrites(db, conversation, message),
    );
    if (message.type === "incoming") question = message;
  }
  if (words && conversation.chatbotId) {
    statements.push(addChatbotWords(db, conversation, conversation.chatbotId, words));
    if (!sameMonth) statements.push(usageIncrement(db, conversation.organizationId, { words }, last));
  }
  return statements;
}

/**
 * Stores a conversation created on its own (without a message) in its part of the organization's data plane, with a
 * copy of its contact when that part is not the contact's (services/shards/contact-copies.ts); answers the part. Its
 * inbox and assistant, read before, are read again once it is stored (conversation/created-links.ts).
 */
export async function storeConversation(env: Bindings, row: ConversationRow): Promise<Db> {
  const part = await conversationDb(env, row.organizationId, row.id);
  const copies = await contactCopyWrites(env, part, row.organizationId, row.id, row.contactId);
  await batch(part, [...copies, ...conversationInserts(part, row)]);
  await purgeLinksGone(env, row, part);
  return part;
}

const TITLE_LENGTH = 80;

/** Who sends a message, as callers of the conversation object name them. */
export interface SenderInput {
  id: string | null;
  name: string;
  avatar: string | null;
}

/** A visitor's (or member's) message as it will be stored, before its ids and sequence. */
export const incomingFields = (sender: SenderInput & { type: "contact" | "user" }, message: Partial<NewMessage>) => ({
  ...message,
  type: "incoming" as const,
  senderType: sender.type,
  senderId: sender.id,
  senderName: sender.name,
  senderAvatar: sender.avatar,
});

/** The assistant's reply as it will be stored, before its sequence. */
export function replyFields(
  chatbot: { id: string; name: string },
  modelId: string | null,
  replyId: string,
  reply: {
    content: string;
    contentPayload?: Record<string, unknown>;
    citations: Record<string, unknown>[];
    citationNodes: Record<string, unknown>[];
    usage: { promptTokens: number; completionTokens: number } | null;
    modelId?: string;
    unanswered?: boolean;
  },
) {
  return {
    id: replyId,
    type: "outgoing" as const,
    senderType: "chatbot" as const,
    senderId: chatbot.id,
    senderName: chatbot.name,
    content: reply.content,
    ...(reply.contentPayload ? { contentPayload: reply.contentPayload } : {}),
    citations: reply.citations,
    citationNodes: reply.citationNodes,
    modelId: reply.modelId ?? modelId, // statistics: usage per model (the fallback's when it answered)
    inputTokens: reply.usage?.promptTokens ?? null,
    outputTokens: reply.usage?.completionTokens ?? null,
    unanswered: reply.unanswered ?? false,
  };
}

/**
 * A new message's time: now, but later than the message before it. The runtime's clock stands
 * still between I/O, so a reply and the next visitor's message are often made in the same
 * millisecond; unique times keep a conversation's messages in order by time as by sequence, and let
 * its object match a caller's conversation row to the messages it keeps (`lastMessageAt`).
 */
export const laterThan = (previousAt: number, now = Date.now()) => Math.max(now, previousAt + 1);

/** A message as it will be stored: its time (now unless given) and, for assistant replies, its word count. */
export function messageRow(message: NewMessage & { id: string; sequence: number }) {
  const words = message.senderType === "chatbot" ? countWords(message.content ?? "") : 0;
  return { ...message, createdAt: message.createdAt ?? Date.now(), wordsCount: words };
}

/**
 * Statements writing what follows in D1 from one message (a `messageRow`, itself stored by its conversation's object):
 * its figures (rollups, record, handoff stretches: statistics/message-figures.ts; `question` is the latest incoming
 * message before it), the conversation's last message, unread count and title, and for assistant replies the word
 * counts of the assistant and the organization. Run in one batch, which the object awaits before it stores the message
 * and tells of it, so a message is never told of without its effects. `assistant`: the conversation's, as the caller
 * read it; needed for an assistant's message only (see messageFigureWrites).
 */
export function messageWrites(
  db: Db,
  conversation: ConversationRow,
  row: ReturnType<typeof messageRow>,
  question: Question | null,
  assistant: FiguredAssistant | null,
  moves = true,
): D1PreparedStatement[] {
  const stored = messageFigureWrites(db, conversation, row, question, assistant);
  // A private note is the team's own: the conversation the visitor sees (its last message, unread count, state) stays
  // as it was.
  if (row.private) return [...stored, ...stretchWrites(db, conversation, row)];
  const { createdAt, wordsCount: words } = row;
  const state = moves ? stateAfter(conversation, row) : {};
  const after = messageLeaves(conversation, row, moves);
  const statements = [
    ...stored,
    updateAfterMessage(db, {
      id: conversation.id,
      lastMessage: after.lastMessage!,
      lastMessageAt: createdAt,
      unread: after.unreadCount - conversation.unreadCount,
      title: after.title === conversation.title ? null : after.title,
      status: state.status ?? null,
      progressStatus: state.progressStatus ?? null,
      autoReplyEnabled: state.autoReplyEnabled === undefined ? null : Number(state.autoReplyEnabled),
      updatedAt: Date.now(),
    }),
    ...stretchWrites(db, conversation, row),
  ];
  if (words && conversation.chatbotId) {
    statements.push(
      addChatbotWords(db, conversation, conversation.chatbotId, words),
      usageIncrement(db, conversation.organizationId, { words }, createdAt),
    );
  }
  return statements;
}

type MessageShape = Pick<NewMessage, "type" | "senderType" | "content" | "contentPayload" | "private"> & {
  createdAt: number;
};

/**
 * The conversation as `messageWrites` of `row` leaves it (but `updatedAt`): the last message,
 * the unread count, the title a first visitor message gives, and the state that follows; a private
 * note leaves it as it was.
 */
export const afterMessage = (conversation: ConversationRow, row: MessageShape) => messageLeaves(conversation, row);

/** As `afterMessage`; `moves` false: the state stays as it is (see `movesState`). */
export function messageLeaves(conversation: ConversationRow, row: MessageShape, moves = true): ConversationRow {
  if (row.private) return conversation; // see messageWrites
  const incoming = row.type === "incoming";
  const state = moves ? stateAfter(conversation, row) : {};
  return {
    ...conversation,
    ...state,
    waitingSince: waitingAfter(conversation, state.status ?? conversation.status, row.createdAt),
    lastMessage: clip(row.content ?? "", 500),
    lastMessageAt: row.createdAt,
    unreadCount: conversation.unreadCount + (unreadBy(conversation, row) ? 1 : 0),
    title: conversation.title || !incoming ? conversation.title : clip(row.content ?? "", TITLE_LENGTH),
  };
}

/**
 * Whether a message waits to be read by an agent: a visitor's (contact's) message, never a note or
 * a message of the team (agents, the assistant), nor one of a test conversation (the team trying its
 * own assistant), so the inbox's unread counts are the visitors' alone.
 */
const unreadBy = (
  conversation: Pick<ConversationRow, "isTest">,
  row: Pick<NewMessage, "type" | "senderType" | "private">,
) => row.type === "incoming" && row.senderType === "contact" && !row.private && !conversation.isTest;

/**
 * Conversation states (docs/decisions.md, "Conversation states"): a visitor message puts a
 * conversation with auto reply in `ai_processing`, and one handed off back in the queue; a human
 * agent's reply means `human_serving`; the assistant's handoff reply queues it for a human, the
 * assistant silent (handoff.ts). A resolved conversation reopens on a new visitor message.
 */
function stateAfter(
  conversation: ConversationRow,
  message: Pick<NewMessage, "type" | "senderType" | "contentPayload">,
): Partial<ConversationRow> {
  if (message.type === "incoming") {
    if (conversation.autoReplyEnabled) return { status: "open", progressStatus: "ai_processing" };
    return conversation.status === "resolved" ? { status: "queued", progressStatus: "waiting_for_human" } : {};
  }
  if (message.senderType === "user") return { status: "open", progressStatus: "human_serving" };
  if (handsOff(message)) return { status: "queued", progressStatus: "waiting_for_human", autoReplyEnabled: false };
  return {};
}

/**
 * Whether a message still moves the state of `current` (the row as it is when the message is written) as it moved the
 * state of `seen` (the row its turn read): an operator's change written since (a take-over, a resolve, a handoff)
 * stands, and a message of the turn under way (the visitor's, the assistant's handoff reply) does not undo it. A
 * member's reply serves the conversation whatever it was.
 */
export const movesState = (
  seen: ConversationRow,
  current: ConversationRow,
  row: Pick<NewMessage, "type" | "senderType">,
) =>
  (row.type === "outgoing" && row.senderType === "user") ||
  (seen.status === current.status &&
    seen.progressStatus === current.progressStatus &&
    seen.autoReplyEnabled === current.autoReplyEnabled);

/**
 * What an operator does to a conversation (docs/decisions.md, "Conversation states"). Fields left
 * out keep their value.
 */
export interface ConversationChange {
  autoReplyEnabled?: boolean;
  /** Absent (with progressStatus): the state stays as it is (an assignment). */
  status?: ConversationRow["status"];
  progressStatus?: ConversationRow["progressStatus"];
  /** Present: the new assignee (null: none). */
  assigneeId?: string | null;
  /** Present: the new team (null: none). */
  teamId?: string | null;
  /**
   * Made only while the conversation waits for a person with no assignee, as it is when written (a reply picking it
   * up, see pickUpState): of two replies at once, the second finds it taken.
   */
  whileWaiting?: boolean;
  /**
   * Made only while this user holds the conversation, as when it was read (the release of a member who leaves, see
   * assignment/release.ts): a reassignment made in between stays.
   */
  whileAssignee?: string;
}

/** Who made a change, as a visitor may see them (the widget's "Olivia joined the conversation"). */
export interface ChangeActor {
  name: string;
  avatar: string | null;
}

/**
 * A change as the conversation object tells its live subscribers (`event: state`): the state it
 * leaves, and the human now serving (null unless `human_serving`).
 */
export interface ConversationStateEvent {
  conversationId: string;
  status: ConversationRow["status"];
  progressStatus: ConversationRow["progressStatus"];
  agent: ChangeActor | null;
}

/** Auto reply off (handoff) queues the conversation for a human; on gives it back to the assistant, unassigned. */
export const handoffState = (autoReplyEnabled: boolean): ConversationChange =>
  autoReplyEnabled
    ? { autoReplyEnabled, status: "open", progressStatus: "ai_processing", assigneeId: null }
    : { autoReplyEnabled, status: "queued", progressStatus: "waiting_for_human" };

/** A member takes the conversation over: the assistant stops, the member serves it (CONTRACT section 16). */
export const takeOverState = (userId: string): ConversationChange => ({
  autoReplyEnabled: false,
  status: "open",
  progressStatus: "human_serving",
  assigneeId: userId,
});

/** A member's reply picks up a waiting conversation nobody holds: a take-over, unless someone took it first. */
export const pickUpState = (userId: string): ConversationChange => ({ ...takeOverState(userId), whileWaiting: true });

/** Resolved; a visitor's next message reopens it (see stateAfter). */
export const resolvedState: ConversationChange = { status: "resolved", progressStatus: "resolved" };

const setState = prepared<{
  id: string;
  autoReplyEnabled: number | null;
  status: string | null;
  progressStatus: string | null;
  assign: number;
  assigneeId: string | null;
  assignTeam: number;
  teamId: string | null;
  whileWaiting: number;
  whileAssignee: string | null;
  updatedAt: number;
}>((db) =>
  db
    .update(conversations)
    .set({
      autoReplyEnabled: sql`coalesce(${sql.placeholder("autoReplyEnabled")}, ${conversations.autoReplyEnabled})`,
      status: sql`coalesce(${sql.placeholder("status")}, ${conversations.status})`,
      progressStatus: sql`coalesce(${sql.placeholder("progressStatus")}, ${conversations.progressStatus})`,
      assigneeId: sql`case when ${sql.placeholder("assign")} = 1
        then ${sql.placeholder("assigneeId")} else ${conversations.assigneeId} end`,
      teamId: sql`case when ${sql.placeholder("assignTeam")} = 1
        then ${sql.placeholder("teamId")} else ${conversations.teamId} end`,
      waitingSince: waitingSinceAfter(
        sql`coalesce(${sql.placeholder("status")}, ${conversations.status})`,
        sql`${sql.placeholder("updatedAt")}`,
      ),
      updatedAt: sql`${sql.placeholder("updatedAt")}`,
    })
    .where(
      and(
        eq(conversations.id, sql.placeholder("id")),
        stillWaiting(sql.placeholder("whileWaiting")),
        stillHeld(sql.placeholder("whileAssignee")),
      ),
    ),
);

/** True unless `whileWaiting` (1) and the conversation no longer waits for a person with no assignee (see
 * ConversationChange). */
function stillWaiting(whileWaiting: ReturnType<typeof sql.placeholder>) {
  const waiting = sql`${conversations.progressStatus} = 'waiting_for_human' and ${conversations.assigneeId} is null`;
  return sql`(${whileWaiting} = 0 or (${waiting}))`;
}

/** True unless `whileAssignee` is given and no longer the conversation's assignee (see ConversationChange). */
function stillHeld(whileAssignee: ReturnType<typeof sql.placeholder>) {
  return sql`(${whileAssignee} is null or ${conversations.assigneeId} = ${whileAssignee})`;
}

/** The statement of a change (see ConversationChange). */
export const stateWrite = (db: Db, conversationId: string, change: ConversationChange) =>
  setState(db, {
    id: conversationId,
    autoReplyEnabled: change.autoReplyEnabled === undefined ? null : Number(change.autoReplyEnabled),
    status: change.status ?? null,
    progressStatus: change.progressStatus ?? null,
    assign: change.assigneeId === undefined ? 0 : 1,
    assigneeId: change.assigneeId ?? null,
    assignTeam: change.teamId === undefined ? 0 : 1,
    teamId: change.teamId ?? null,
    whileWaiting: change.whileWaiting ? 1 : 0,
    whileAssignee: change.whileAssignee ?? null,
    updatedAt: Date.now(),
  });

/** The Durable Object that orders this conversation's messages. */
export const conversationObject = (env: Bindings, conversationId: string) =>
  env.CONVERSATION.get(env.CONVERSATION.idFromName(conversationId));

/** How many conversation objects a cron's pass asks at once. */
const OBJECTS_AT_ONCE = 20;

/**
 * A cron's pass over many conversations' objects: `call` on each of `ids`, twenty at a time; a call that fails is
 * logged under `failure` and left for a later pass. Returns the ids whose call succeeded.
 */
export async function eachConversationObject(
  env: Bindings,
  ids: string[],
  call: (object: ReturnType<typeof conversationObject>, conversationId: string) => Promise<unknown>,
  failure: string,
): Promise<string[]> {
  const done: string[] = [];
  for (let i = 0; i < ids.length; i += OBJECTS_AT_ONCE) {
    const asked = ids.slice(i, i + OBJECTS_AT_ONCE);
    const settled = await Promise.allSettled(asked.map((id) => call(conversationObject(env, id), id)));
    settled.forEach((s, n) => {
      if (s.status === "fulfilled") done.push(asked[n]);
      else logError(failure, { conversationId: asked[n], error: String(s.reason) });
    });
  }
  return done;
}

/** How long a spare stays usable: bounds how much older than its conversation its uuidv7 id may be. */
const SPARE_MAX_AGE_MS = 10_000;
/** How long after a new conversation its isolate's next spare starts (see newConversationId). */
const SPARE_START_DELAY_MS = 50;
let spare: { id: string; at: number } | null = null;

/**
 * The id of a conversation about to be created, whose object is already running. Starting a new
 * Durable Object is the slowest step of a first turn, so each isolate keeps one spare started ahead
 * of use: a new conversation takes it when it is recent (else a fresh id, whose object its first
 * call starts), and the next spare starts shortly after, once this turn's first words are out: on
 * the local runtime, starting an object stalls the one thread that also carries the reply.
 */
export function newConversationId(env: Bindings, waitUntil: (p: Promise<unknown>) => void, now = Date.now()): string {
  const id = spare && now - spare.at < SPARE_MAX_AGE_MS ? spare.id : uuidv7();
  const next = { id: uuidv7(), at: now };
  spare = next;
  const started = new Promise((resolve) => setTimeout(resolve, SPARE_START_DELAY_MS)).then(() =>
    conversationObject(env, next.id).warm(),
  );
  waitUntil(started.catch(() => undefined));
  return id;
}
