import { DurableObject } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import type { Bindings, Db } from "../src/env";
import { getDb } from "../src/db";
import { chatbots, conversations, models } from "../src/db/schema";
import { ApiError } from "../src/lib/errors";
import { uuidv7 } from "../src/lib/ids";
import { handoffReply, handoffSettings, outsideHours, type HandoffTrigger } from "../src/services/conversation/handoff";
import { clockNow } from "../src/lib/clock";
import {
  afterMessage,
  replyFields,
  conversationInserts,
  incomingFields,
  messageLeaves,
  messageWrites,
  movesState,
  stateWrite,
  type ChangeActor,
  type ConversationChange,
  type ConversationRow,
  type ConversationStateEvent,
  type MessageRow,
  type NewMessage,
  type SenderInput,
} from "../src/services/conversations";
import type { TurnError, TurnResult } from "../src/services/conversation/turn-result";
import { knowledgeBasesOfChatbot } from "../src/services/knowledge/knowledge-bases";
import { WriteQueue } from "./write-queue";
import { MessageStore, type MessageLookup, type VisibleWindow } from "./conversation-store";
import { SseWriter } from "../src/services/sse";
import { effectStatements, runStored } from "../src/services/conversation/effects";
import {
  answer,
  endStream,
  runTurn,
  sequencedMessage,
  storedAlready,
  type Assistant,
  type MessageFields,
  type ReplyContext,
  type ReplyWatch,
  type TurnStore,
  type Writing,
} from "../src/services/conversation/turn";
import type { QueryMetadata } from "../src/services/knowledge/query-scope";
import type { Cursor } from "../src/lib/pagination";
import { messageRecord, type MessageRecord } from "../src/services/records/messages";
import { feedbackFigureWrites, type FiguredAssistant, type Question } from "../src/services/statistics/message-figures";
import type { ChangeReason } from "../src/services/records/conversation-events";
import { changeEventWrites } from "../src/services/webhooks/conversation-events";
import { createdDeliveries, enqueueDeliveries } from "../src/services/webhooks/emit";
import type { RatedConversation } from "../src/services/widget/feedback";
import { channelEffect, showDelivery } from "../src/services/channels/outbound";
import { batch, client } from "../src/db/prepared";
import { conversationDb } from "../src/services/shards/parts";
import { contactCopyWrites } from "../src/services/shards/contact-copies";
import { outboxConfig, type OutboxConfig } from "../src/services/conversation/outbox-config";
import { bodyEvaluated } from "./conversation-entry";
import { logError } from "../src/lib/log";
import { purgeTeamIfGone } from "../src/services/assignment/settings";

export type { SenderInput } from "../src/services/conversations";
export type { TurnError, TurnResult } from "../src/services/conversation/turn-result";

/** Message fields a caller supplies; the object adds ids, sequence and sender. */
export type MessageInput = Pick<
  NewMessage,
  | "id"
  | "content"
  | "contentPayload"
  | "attachments"
  | "canvas"
  | "queryMetadata"
  | "metadata"
  | "skillIds"
  | "toolIds"
  | "private"
>;

export interface TurnInput {
  /** The conversation's organization, as the caller found the conversation in it. */
  organizationId: string;
  conversationId: string;
  /** A conversation that does not exist yet: it is stored in the same batch as its first message. */
  created?: ConversationRow;
  /** The conversation as the caller just read it: spares the object a read when it is current (see #load). */
  conversation?: ConversationRow;
  /** The assistant, its model and knowledge bases as the caller read them for this request (saves reading them again).
   * */
  assistant?: Assistant;
  sender: SenderInput & { type: "contact" | "user" };
  message: MessageInput;
  /**
   * The query restrictions of the conversation's contact, when the caller read them: retrieval then
   * does not read them, which it could not yet for a conversation this turn creates (see #startTurn).
   */
  contactQueryMetadata?: QueryMetadata | null;
  /** Completions' `waitForAttachments` (default true): wait for attached documents' text before answering. */
  waitForAttachments?: boolean;
  /** The request's id (`X-Request-Id`), carried by a stream's `event: error` and the failure's log line. */
  requestId?: string;
  /**
   * Why the assistant may not answer though it would (the plan's monthly words are used, services/monthly-words.ts),
   * as the caller found: the message is stored without a reply, and the turn ends with this error.
   */
  refusal?: TurnError;
  /** A message that asks for no answer (a visitor's reaction on a messaging platform): stored, and the assistant stays
   * silent. */
  silent?: boolean;
}

type Pending = { incomingId: string; attempts: number };
/** A reply to continue once its desktop tool calls have results (resume), until it is stored. */
type PendingResume = { replyId: string; attempts: number };

const HISTORY_MESSAGES = 20;
const PENDING_KEY = "pendingReply";
const RESUME_KEY = "pendingResume";
const PENDING_RETRY_MS = 30_000;
const MAX_REPLY_ATTEMPTS = 3;
/** Storage key of a first turn under way in the worker: until when later turns wait for it (see holdForFirstTurn). */
const FIRST_TURN_KEY = "firstTurnUntil";

/**
 * One instance per conversation (`idFromName(conversationId)`). Every write to an existing
 * conversation goes through it (a new conversation's first turn may be stored by the worker that
 * answers it, before anyone can know the conversation: services/conversation/first-turn.ts): it
 * hands out the strictly increasing message sequence and runs one turn at a time (the visitor's
 * message, then the assistant's reply), so concurrent senders never interleave. A reply is stored
 * in one batch once complete, so a crash never leaves half a message; a reply owed to an
 * asynchronous message is remembered and retried by an alarm if the object dies. Live subscribers
 * (the chat widget) see every message and reply delta; every stored message's effects run in order
 * (services/conversation/effects.ts: webhooks, the live inbox, ...). Each message it stores is kept in
 * its own SQLite as well, which the message list reads (durable-objects/conversation-store.ts).
 */
export class Conversation extends DurableObject<Bindings> {
  #chain: Promise<unknown> = Promise.resolve();
  /** The control plane: the assistant, its model and knowledge bases, the inbox's configuration. */
  #db = getDb(this.env.DB);
  /**
   * The conversation's organization's data plane (its row, its messages' batches, figures and deliveries), taken once
   * its first call names the organization (see #open).
   */
  #data: { organizationId: string; db: Db } | null = null;
  #subscribers = new Set<SseWriter>();
  /** Text so far of replies being produced, by message id, as subscribers have seen it (see follow). */
  #live = new Map<string, { conversationId: string; text: string }>();
  /** The last sequence number handed out; null until the conversation is loaded (see #load). */
  #sequence: number | null = null;
  /** The conversation's latest messages, newest first, kept up to date by #commit; null until loaded. */
  #recent: MessageRow[] | null = null;
  /**
   * The latest incoming message queued for storing (the question the next assistant message
   * answers: its record and reply time, statistics/message-figures.ts), loaded with #recent: it may
   * be older than the messages kept there.
   */
  #question: Question | null = null;
  /** The announcement (to subscribers and the live inbox) of the newest message queued (see #commit). */
  #announced: Promise<unknown> = Promise.resolve();
  /** The newest message's time: each new one is given a later one (`laterThan`). */
  #lastAt = 0;
  /** The sequence of the last message before the latest handoff: a caller's row read before then is not used (see
   * #load). */
  #handoffAt = 0;
  /** How many operators' changes were queued (see change): a message built on a row read before one reads it again. */
  #changes = 0;
  /** Every D1 write of this object (messages, handoffs), in order; a failed one makes it load the conversation again.
   * */
  #writes = new WriteQueue(
    () => this.#dataPlane,
    () => (this.#recent = null),
  );
  /** A new conversation's first turn under way in the worker (see holdForFirstTurn); `done` settles when it reports or
   * its time is up. */
  #firstTurn: { done: Promise<void>; end: () => void } | null = null;
  /** The messages in this object's own storage (durable-objects/conversation-store.ts). */
  #messages: MessageStore;
  /**
   * The writes of columns changed after a message is stored (ratings, delivery states), one at a time. Apart from the
   * turns (#exclusive), which a rating need not wait for: no turn writes these columns of a stored message.
   */
  #columns: Promise<unknown> = Promise.resolve();

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    this.#messages = new MessageStore(ctx.storage);
  }

  /** Nothing: lets a caller start this object ahead of use (see newConversationId). */
  warm(): void {}

  /**
   * A new conversation's first streamed turn runs in the worker (services/conversation/first-turn.ts), which
   * stores the visitor's message (sequence 1) while the reply is under way: from then on a later
   * turn can reach this object before the reply (sequence 2) is stored. Until the worker reports it
   * stored or failed (firstTurnDone), or `until` passes (the worker died), no turn here reads the
   * conversation. Kept in storage, so an instance that replaces this one (a reset) waits as well.
   */
  holdForFirstTurn(until: number): void {
    this.ctx.storage.kv.put(FIRST_TURN_KEY, until);
    this.#holdUntil(until);
  }

  /** The worker's first turn is stored, or failed: turns may read the conversation. */
  firstTurnDone(): void {
    if (this.#firstTurn) this.#firstTurn.end();
    else this.ctx.storage.kv.delete(FIRST_TURN_KEY);
  }

  /**
   * A visitor's message and, when auto reply is on, the assistant's answer: resolves when both are
   * stored, or with the reply's failure (`error`; the message stays stored).
   */
  converse(input: TurnInput): Promise<TurnResult> {
    return this.#startTurn(input, null, false).result;
  }

  /** The same turn, answered as soon as the visitor's message is stored (the reply follows). */
  async post(input: TurnInput): Promise<MessageRecord> {
    const { result, receipt } = this.#startTurn(input, null, true);
    // A reply's own failure is a result (logged where it is made, turn-result.ts); a rejection is the turn failing,
    // which the caller hears of only before its receipt is answered: logged here (the alarm answers an owed reply).
    this.ctx.waitUntil(
      result.catch((err) =>
        logError("posted message's turn failed", {
          conversationId: input.conversationId,
          requestId: input.requestId,
          error: String(err),
          stack: (err as Error)?.stack,
        }),
      ),
    );
    return receipt;
  }

  /**
   * The same turn, with the reply streamed as server-sent events (CONTRACT section 7). The stream is
   * handed over once the model has begun to answer (or the turn has ended or failed): on the local
   * runtime, a turn that goes on after this call has returned reaches the model ~3 ms later.
   */
  async stream(input: TurnInput): Promise<ReadableStream<Uint8Array>> {
    const sse = new SseWriter();
    this.#startTurn(input, sse, false).result.catch(() => undefined); // told on the stream
    await sse.opened;
    return sse.readable;
  }

  /**
   * Everything that happens in the conversation from now on, as server-sent events:
   * `event: message` with each stored message record, `event: delta` with reply text as it is produced,
   * `event: state` with each operator's change (ConversationStateEvent); first, and whenever a reply begins or ends,
   * `event: replying` `{replying}` (see #replying).
   */
  subscribe(): ReadableStream<Uint8Array> {
    const sse = new SseWriter(() => this.#subscribers.delete(sse));
    sse.send({ replying: this.#replying() }, "replying");
    this.#subscribers.add(sse);
    return sse.readable;
  }

  /**
   * Whether the assistant is composing a reply here now: a turn's, a resumed or an owed one, from its start until it
   * is stored or failed (`event: replying`). A new conversation's first reply run in the worker (the completions
   * API's; the widget's go through here) is not told: nor are its messages (services/conversation/first-turn.ts).
   */
  #replying(): boolean {
    return this.#live.size > 0;
  }

  /** Tells the subscribers whether a reply is under way (`event: replying`) after a reply begins or ends. */
  #tellReplying() {
    if (this.#subscribers.size) this.#broadcast("replying", { replying: this.#replying() });
  }

  /**
   * A reply being produced, for a client that lost its stream (the widget's `Last-Event-ID`): a
   * subscription (see subscribe) that starts with a `delta` of the whole text so far, then every
   * delta and message from now on, and `event: reply_failed` should the reply fail. Null when the
   * reply is not under way here (already stored, failed, or unknown).
   */
  follow(messageId: string): ReadableStream<Uint8Array> | null {
    const live = this.#live.get(messageId);
    if (!live) return null;
    const sse = new SseWriter(() => this.#subscribers.delete(sse));
    sse.send({ conversationId: live.conversationId, messageId, content: live.text }, "delta");
    this.#subscribers.add(sse);
    return sse.readable;
  }

  /** A human agent's reply: stored in order, no assistant answer. */
  async agentMessage(
    organizationId: string,
    conversationId: string,
    sender: SenderInput,
    message: MessageInput,
  ): Promise<MessageRecord> {
    return this.#exclusive(async () => {
      await this.#open(organizationId, conversationId);
      const { conversation, view } = await this.#load(conversationId);
      const store = this.#store(view, conversation);
      const fields = {
        ...message,
        type: "outgoing" as const,
        senderType: "user" as const,
        senderId: sender.id,
        senderName: sender.name,
        senderAvatar: sender.avatar,
      };
      return (await runTurn(store, { conversation, message: store.next(conversation, fields), context: null }).result)
        .incoming;
    });
  }

  /**
   * The assistant hands the conversation to a person on its own, outside a turn (a visitor's second
   * dislike): it says its handoff message once, whose storing queues the conversation (handoff.ts).
   * Nothing when the conversation is with a person already or the assistant's handoff is off.
   */
  async handOff(
    organizationId: string,
    conversationId: string,
    trigger: HandoffTrigger,
  ): Promise<MessageRecord | null> {
    return this.#exclusive(async () => {
      await this.#open(organizationId, conversationId);
      const { conversation, recent, view } = await this.#load(conversationId);
      if (!conversation.autoReplyEnabled || !conversation.chatbotId) return null;
      const { chatbot } = await this.#assistant(conversation.chatbotId);
      const settings = handoffSettings(chatbot.handoff);
      if (!settings.enabled) return null;
      // Outside the inbox's business hours it says the outside-hours message with the next opening, as a turn's does.
      const said = handoffReply(
        settings,
        "unanswered",
        recent.find((m) => m.type === "incoming") ?? { content: "" },
        undefined,
        await outsideHours(this.#db, conversation.inboxId, clockNow(this.env)),
      );
      const store = this.#store(view, conversation);
      const fields = replyFields(chatbot, null, uuidv7(), {
        ...said,
        contentPayload: { handoff: { ...(said.contentPayload?.handoff as Record<string, unknown>), trigger } },
      });
      const message = store.next(conversation, fields);
      return (await runTurn(store, { conversation, message, context: null, assistant: chatbot }).result).incoming;
    });
  }

  /**
   * An operator's change (handoff, takeover, hand back, resolve; `reason` as CONTRACT section 18
   * names it), with its lifecycle event: written after the messages already on their way, so a visitor's message that
   * arrived first cannot undo it. The next turn reads the
   * conversation again, whatever row its caller read before the change; a reply already under way
   * still completes, but the state it would leave (a handoff) is not written over the change (see #commit). False
   * when the change was not made, its condition no longer holding (a pick-up that found the conversation taken:
   * `whileWaiting`; a release that found it reassigned: `whileAssignee`).
   */
  async change(
    conversation: Pick<ConversationRow, "id" | "organizationId" | "inboxId">,
    change: ConversationChange,
    actor: ChangeActor,
    reason: ChangeReason = "operator",
  ): Promise<boolean> {
    const conversationId = conversation.id;
    this.#changes++;
    this.#recent = null;
    this.#handoffAt = this.#sequence ?? Infinity; // not loaded: every message stored so far (see #load)
    // Its lifecycle event and the event's webhook deliveries in the same batch
    // (services/webhooks/conversation-events.ts), queued now (built once the inbox's webhooks are read).
    const now = Date.now();
    const statements = Promise.all([
      this.#open(conversation.organizationId, conversationId),
      outboxConfig(this.#db, conversation.inboxId),
    ]).then(([data, config]) => {
      const event = changeEventWrites(data, conversationId, change, reason, config, now);
      return [event.before, stateWrite(data, conversationId, change), event.after];
    });
    const [, state, outbox] = await this.#writes.write(statements, null);
    // A change whose condition no longer held (`whileWaiting`, `whileAssignee`) changed nothing: nothing to tell.
    if (!state.meta.changes) return false;
    // The team, checked by the caller before the write, may have been deleted since. Logged, not thrown: the change
    // is made.
    if (change.teamId)
      await purgeTeamIfGone(
        this.#db,
        await this.#open(conversation.organizationId, conversationId),
        conversation.organizationId,
        change.teamId,
      ).catch((err) => logError("assigned team not checked", { conversationId, error: String(err) }));
    const deliveries = createdDeliveries(outbox);
    // Should the queue refuse, the housekeeping cron queues the pending outbox rows again.
    if (deliveries.length)
      this.ctx.waitUntil(
        enqueueDeliveries(this.env, deliveries, conversation.organizationId).catch((err) => console.error(String(err))),
      );
    // After the messages announced before it, so a visitor reads them in the order they happened.
    await this.#announced;
    // An assignment alone leaves the state as it is: nothing for the visitor to see.
    if (!change.status || !change.progressStatus) return true;
    const agent = change.progressStatus === "human_serving" ? actor : null;
    this.#broadcast("state", {
      conversationId,
      status: change.status,
      progressStatus: change.progressStatus,
      agent,
    } satisfies ConversationStateEvent);
    return true;
  }

  /**
   * A human agent is typing (true) or stopped (false): told to the live subscribers (the widget's
   * "Olivia is typing…") as `event: typing`, nothing stored. Not ordered after messages on their
   * way: a typing signal that overtakes a message is harmless, and waiting would delay it.
   */
  typing(conversationId: string, typing: boolean, name: string): void {
    this.#broadcast("typing", { conversationId, typing, name });
  }

  /**
   * A message of the assistant's side said outside a turn (the satisfaction question after a
   * resolve, services/conversation/csat.ts): stored in order as the assistant's, leaving the
   * conversation's state as it is (a resolved conversation stays resolved), and delivered like any reply.
   * `assistant`: the conversation's as the caller read it (read here when not given).
   */
  async say(
    organizationId: string,
    conversationId: string,
    message: MessageInput & { senderId: string | null; senderName: string },
    assistant: FiguredAssistant | null = null,
  ): Promise<MessageRecord> {
    return this.#exclusive(async () => {
      await this.#open(organizationId, conversationId);
      const { conversation, view } = await this.#load(conversationId);
      const figured = await this.#figuredAssistant(conversation.chatbotId, assistant);
      const store = this.#store(view, conversation);
      const fields = { ...message, type: "outgoing" as const, senderType: "chatbot" as const };
      const said = store.next(conversation, fields);
      return (await runTurn(store, { conversation, message: said, context: null, assistant: figured }).result).incoming;
    });
  }

  /**
   * Continues an agent reply whose desktop tool calls all have results (posted to
   * `tool-execution-records/{id}/result/`): a new reply to the same visitor message, from the calls
   * and results so far. Nothing when the conversation has moved on (its next turn reads the
   * results) or auto reply is off. The continuation is owed from this call on: it is written down
   * first, with the alarm owed replies have, so an instance lost before or while it answers leaves
   * it to the alarm; the caller waits for that note only, not for the reply.
   */
  async resume(organizationId: string, conversationId: string, replyId: string): Promise<void> {
    const data = await this.#open(organizationId, conversationId);
    // A reply of the worker's first turn is still in D1: copied here first, so the note (and the alarm) finds it.
    await this.#messages.sync(client(data), conversationId, organizationId);
    this.ctx.storage.kv.put(RESUME_KEY, { replyId, attempts: 0 } satisfies PendingResume);
    await this.ctx.storage.setAlarm(Date.now() + PENDING_RETRY_MS);
    this.ctx.waitUntil(
      this.#exclusive(() => this.#continueNow(replyId)).catch((err) =>
        logError("reply not continued after its desktop tool results", {
          conversationId,
          replyId,
          error: String(err),
          stack: (err as Error)?.stack,
        }),
      ),
    );
  }

  /** The continuation `resume` owes, if it is still owed and still the conversation's next step (inside #exclusive). */
  async #continueNow(replyId: string) {
    if (this.ctx.storage.kv.get<PendingResume>(RESUME_KEY)?.replyId !== replyId) return;
    const reply = this.#messages.get(replyId);
    if (!reply) return void this.ctx.storage.kv.delete(RESUME_KEY);
    const { conversation, recent, view } = await this.#load(reply.conversationId);
    // The conversation moved on when the visitor saw something since the reply: a private note is not in their chat.
    const [latest] = recent.filter((m) => !m.private);
    const incoming = recent.find((m) => m.type === "incoming" && m.sequence < latest.sequence);
    if (latest.id !== replyId || !incoming || !conversation.autoReplyEnabled || !conversation.chatbotId)
      return void this.ctx.storage.kv.delete(RESUME_KEY);
    const context = await this.#replyContext(
      conversation,
      recent.filter((m) => m.sequence < incoming.sequence),
    );
    const { reply: continued } = await this.#answer(conversation, incoming, view, { ...context, continues: latest });
    if (continued && this.ctx.storage.kv.get<PendingResume>(RESUME_KEY)?.replyId === replyId)
      this.ctx.storage.kv.delete(RESUME_KEY);
  }

  /**
   * `pageSize + 1` of the conversation's messages from the cursor on, newest first (`GET /messages/`, as
   * services/messages.ts pages them), from this object's store. None when the conversation is not the
   * organization's.
   */
  listMessages(
    organizationId: string,
    conversationId: string,
    cursor: Cursor | null,
    pageSize: number,
  ): Promise<MessageRecord[]> {
    return this.#read(organizationId, conversationId, () =>
      this.#messages.list(organizationId, conversationId, cursor, pageSize).map(messageRecord),
    );
  }

  /**
   * Messages of the conversation as stored, each looked up by id or as the latest one a filter takes (a message by
   * id, services/messages.ts; a channel's chat and reply, services/channels/outbound.ts; ...), in one read; null for
   * each not found, and for every one when the conversation is not the organization's.
   */
  lookupMessages(
    organizationId: string,
    conversationId: string,
    lookups: MessageLookup[],
  ): Promise<(MessageRow | null)[]> {
    return this.#read(organizationId, conversationId, () =>
      lookups.map(
        (l) =>
          ("id" in l
            ? this.#messages.find(organizationId, conversationId, l.id)
            : this.#messages.latest(organizationId, conversationId, l.latest)) ?? null,
      ),
    );
  }

  /**
   * The messages a visitor may read, as `window` takes them (the widget's history, live catch-up and shared
   * conversation: services/widget/); none when the conversation is not the organization's.
   */
  visibleMessages(organizationId: string, conversationId: string, window: VisibleWindow): Promise<MessageRow[]> {
    return this.#read(organizationId, conversationId, () =>
      this.#messages.visible(organizationId, conversationId, window),
    );
  }

  /**
   * A visitor's rating of the assistant's answer `messageId` in `conversation` (one of the visitor's, as the widget's
   * route read it): its figures stored in D1 (statistics/message-figures.ts), then the rating in this object's store,
   * one rating at a time (#columnWrite), so each counts the change it makes. The answer as rated and the dislikes since
   * the assistant last handed off; null when the conversation has no such answer. `assistant`: the conversation's as
   * the caller read it (read here when not given).
   */
  rate(
    conversation: RatedConversation,
    messageId: string,
    feedback: "like" | "dislike" | null,
    assistant: FiguredAssistant | null = null,
  ): Promise<{ message: MessageRow; dislikes: number } | null> {
    return this.#columnWrite(async () => {
      const data = await this.#open(conversation.organizationId, conversation.id);
      await this.#messages.sync(client(data), conversation.id, conversation.organizationId);
      const message = this.#messages.find(conversation.organizationId, conversation.id, messageId);
      if (message?.senderType !== "chatbot") return null;
      if (message.feedback !== feedback) {
        const figured = await this.#figuredAssistant(conversation.chatbotId, assistant);
        const figures = figured
          ? feedbackFigureWrites(data, conversation, message, message.feedback, feedback, figured)
          : [];
        if (figures.length) await batch(data, figures);
        this.#messages.setFeedback(messageId, feedback);
      }
      return { message: { ...message, feedback }, dislikes: this.#messages.dislikesSinceHandoff(conversation.id) };
    });
  }

  /**
   * A channel delivery's state was written (services/channels/outbound.ts, showState): read from its row in D1 as the
   * row is marked shown (one batch), then shown on its message (`metadata.channelDelivery`) in this object's store. A
   * late or repeated call shows the latest state.
   */
  deliveryState(organizationId: string, conversationId: string, messageId: string): Promise<void> {
    return this.#columnWrite(async () => {
      const data = await this.#open(organizationId, conversationId);
      await this.#messages.sync(client(data), conversationId);
      const [read] = await batch(data, showDelivery(data, messageId));
      const [row] = read.results as { state: string }[];
      if (row) this.#messages.setDeliveryState(messageId, row.state);
    });
  }

  /**
   * Copies the conversation's messages D1 still holds (see MessageStore.takeOver) into this object's store and
   * deletes them there: the housekeeping cron's mover, for conversations no one reads.
   */
  takeOver(organizationId: string, conversationId: string): Promise<void> {
    return this.#columnWrite(async () =>
      this.#messages.takeOver(client(await this.#open(organizationId, conversationId)), conversationId),
    );
  }

  /**
   * The conversation was deleted (services/conversation/forget.ts): its messages and everything else this object
   * stored go, after the turn under way; an instance reading it again starts empty.
   */
  forget(_conversationId: string): Promise<void> {
    return this.#exclusive(async () => {
      await this.ctx.storage.deleteAlarm();
      await this.ctx.storage.deleteAll();
      this.#messages = new MessageStore(this.ctx.storage);
      this.#recent = null;
    });
  }

  /** Safety net for asynchronous replies and continuations after desktop tool results lost with a crashed object. */
  async alarm() {
    await this.#exclusive(async () => {
      await this.#retry<Pending>(
        PENDING_KEY,
        (p) => p.incomingId,
        (incoming) => this.#answerOwed(incoming),
      );
      await this.#retry<PendingResume>(
        RESUME_KEY,
        (p) => p.replyId,
        (reply) => this.#continueNow(reply.id),
      );
    });
  }

  /**
   * One more try of what `key` notes as owed, at most MAX_REPLY_ATTEMPTS, the next alarm set first: `run` gets the
   * message it names. Nothing is owed any more when that message is gone.
   */
  async #retry<T extends { attempts: number }>(
    key: string,
    messageOf: (pending: T) => string,
    run: (message: MessageRow) => Promise<void>,
  ) {
    const pending = this.ctx.storage.kv.get<T>(key);
    if (!pending) return;
    const message = this.#messages.get(messageOf(pending));
    if (!message || pending.attempts >= MAX_REPLY_ATTEMPTS) return void this.ctx.storage.kv.delete(key);
    this.ctx.storage.kv.put(key, { ...pending, attempts: pending.attempts + 1 });
    await this.ctx.storage.setAlarm(Date.now() + PENDING_RETRY_MS);
    // The message names its organization: nothing else is kept for an instance that starts here.
    await this.#open(message.organizationId, message.conversationId);
    await run(message);
  }

  /** The reply owed to a visitor's message (`post`), unless stored already or no longer the assistant's to give. */
  async #answerOwed(incoming: MessageRow) {
    const { conversation, recent, view } = await this.#load(incoming.conversationId);
    const history = recent.filter((m) => m.sequence < incoming.sequence);
    // Stored, but the instance died before forgetting it: answered already (or the assistant has
    // answered later messages since), so another reply would be a duplicate.
    const answered = recent.some((m) => m.sequence > incoming.sequence && m.senderType === "chatbot");
    if (answered || !conversation.autoReplyEnabled || !conversation.chatbotId)
      return void this.ctx.storage.kv.delete(PENDING_KEY);
    await this.#answer(conversation, incoming, view, await this.#replyContext(conversation, history));
  }

  /**
   * A turn (services/conversation/turn.ts) holds the object (#exclusive) until its reply is
   * complete and queued for storing, so turns never interleave; the next turn may begin then, and
   * its visitor's message is stored in the same batch as this reply, or after it (WriteQueue). An
   * owed reply (`post`) holds it until stored, so that only one is ever pending (the alarm's safety net).
   */
  #startTurn(input: TurnInput, stream: SseWriter | null, owed: boolean) {
    let stored!: (m: MessageRecord) => void;
    let failed!: (e: unknown) => void;
    const receipt = new Promise<MessageRecord>((resolve, reject) => ((stored = resolve), (failed = reject)));
    // A stream never reads its receipt: a reply failing before the visitor's message is written
    // (a provider's quick 500, within VISITOR_WRITE_DELAY_MS) must not be an unhandled rejection.
    receipt.catch(() => undefined);
    let started = false;
    const turn = this.#exclusive(async () => {
      await this.#open(input.organizationId, input.conversationId);
      const { conversation, recent, view } = await this.#load(input.conversationId, input.created, input.conversation);
      // A message posted again once stored (two runs of one platform event: services/channels/intake.ts) is the stored
      // one, and starts no second reply.
      const id = input.message.id;
      const known =
        owed && id
          ? (recent.find((m) => m.id === id) ?? this.#messages.find(input.organizationId, input.conversationId, id))
          : undefined;
      if (known) {
        const record = messageRecord(known);
        stored(record);
        return { result: Promise.resolve<TurnResult>({ incoming: record, reply: null }) };
      }
      const store = this.#store(view, conversation, !!input.created);
      const message = store.next(conversation, incomingFields(input.sender, input.message));
      const answering = conversation.autoReplyEnabled && !!conversation.chatbotId && !input.silent;
      const answers = answering && !input.refusal;
      if (answers && owed) {
        this.ctx.storage.kv.put(PENDING_KEY, { incomingId: message.id, attempts: 0 } satisfies Pending);
        await this.ctx.storage.setAlarm(Date.now() + PENDING_RETRY_MS);
      }
      const extra = { contactQueryMetadata: input.contactQueryMetadata, waitForAttachments: input.waitForAttachments };
      const context = answers
        ? this.#replyContext(conversation, recent, input.assistant).then((c) => ({ ...c, ...extra }))
        : null;
      const refused = answering ? input.refusal : undefined;
      const run = runTurn(store, { conversation, message, context, stream, requestId: input.requestId, refused });
      started = true; // from here on the turn tells its stream how it ended
      run.message.stored.then((row) => stored(messageRecord(row)), failed);
      await run.queued;
      const result = run.result.then((r) => this.#answered(message.id, r));
      if (owed) await result.catch(() => undefined);
      return { result };
    });
    const result = turn.then((t) => t.result);
    result.catch((err) => {
      failed(err);
      if (stream && !started) endStream(stream, err, input);
    });
    return { result, receipt };
  }

  /** The assistant's answer to a message stored earlier (resume, alarm); resolves once stored or failed. */
  async #answer(
    conversation: ConversationRow,
    incoming: MessageRow,
    view: number,
    context: ReplyContext,
  ): Promise<TurnResult> {
    const { result } = await answer(this.#store(view, conversation), {
      conversation,
      incoming,
      visitor: storedAlready(incoming),
      context,
    });
    return this.#answered(incoming.id, await result);
  }

  /** A reply owed to `incomingId` is stored: nothing is pending for the alarm. */
  #answered(incomingId: string, result: TurnResult): TurnResult {
    if (result.reply && this.ctx.storage.kv.get<Pending>(PENDING_KEY)?.incomingId === incomingId)
      this.ctx.storage.kv.delete(PENDING_KEY);
    return result;
  }

  /** What a reply needs: the assistant, its model and knowledge bases (read unless the caller did), and the history,
   * oldest first. */
  async #replyContext(
    conversation: ConversationRow,
    recent: MessageRow[],
    assistant?: Assistant,
  ): Promise<ReplyContext> {
    // Private notes are the team's: an assistant that read them could repeat them to the visitor.
    return {
      ...(assistant ?? (await this.#assistant(conversation.chatbotId!))),
      history: recent.filter((m) => !m.private).reverse(),
    };
  }

  /**
   * What the figures of an assistant's message take of the conversation's assistant (message-figures.ts): the caller's
   * row when it is that assistant's, else read; none when the conversation has no assistant (or it is deleted).
   */
  async #figuredAssistant(
    chatbotId: string | null,
    given: FiguredAssistant | null,
  ): Promise<FiguredAssistant | undefined> {
    if (!chatbotId) return undefined;
    if (given?.id === chatbotId) return given;
    const [row] = await this.#db
      .select({
        id: chatbots.id,
        largeLanguageModelId: chatbots.largeLanguageModelId,
        enableEvaluation: chatbots.enableEvaluation,
      })
      .from(chatbots)
      .where(eq(chatbots.id, chatbotId));
    return row;
  }

  async #assistant(chatbotId: string): Promise<Assistant> {
    const [[row], knowledgeBases] = await Promise.all([
      this.#db
        .select({ chatbot: chatbots, model: models })
        .from(chatbots)
        .leftJoin(models, eq(models.id, chatbots.largeLanguageModelId))
        .where(eq(chatbots.id, chatbotId)),
      knowledgeBasesOfChatbot(this.#db, chatbotId),
    ]);
    if (!row) throw new ApiError(404, "not_found", "The conversation's assistant no longer exists.");
    return { ...row, knowledgeBases };
  }

  /**
   * A read of this object's store (`local`), once the messages D1 still holds for the conversation are copied (see
   * MessageStore.sync): every message this object stored is in the store before its caller hears of it (#commit), and
   * one another writer stored in D1 (the worker's first turn) is copied by the read, so a reader sees what was stored
   * before it asked.
   */
  async #read<T>(organizationId: string, conversationId: string, local: () => T): Promise<T> {
    await this.#messages.sync(client(await this.#open(organizationId, conversationId)), conversationId, organizationId);
    return local();
  }

  /**
   * The part of `organizationId`'s data plane holding the conversation (`conversationDb`: one await of what the
   * isolate holds, no D1 call), taken by the first call, which names it. A call naming another organization (a read
   * that finds nothing there) gets that one's and leaves the conversation's as it is.
   */
  async #open(organizationId: string, conversationId: string): Promise<Db> {
    if (this.#data?.organizationId === organizationId) return this.#data.db;
    const db = await conversationDb(this.env, organizationId, conversationId);
    this.#data ??= { organizationId, db };
    return db;
  }

  /** The conversation's data plane (see #open): taken before any statement is built or written. */
  get #dataPlane(): Db {
    if (!this.#data) throw new Error("the conversation's organization is not known yet");
    return this.#data.db;
  }

  /** Writes of a stored message's columns (ratings, delivery states), one at a time: each reads what it changes. */
  #columnWrite<T>(op: () => Promise<T>): Promise<T> {
    const run = this.#columns.then(op, op);
    this.#columns = run.catch(() => undefined);
    return run;
  }

  #exclusive<T>(op: () => Promise<T>): Promise<T> {
    const run = this.#chain.then(op, op);
    this.#chain = run.catch(() => undefined);
    return run;
  }

  /**
   * The conversation and its latest messages (newest first). This object is the conversation's only
   * writer of messages, so after the first load it keeps them in memory, with the sequence counter:
   * no read and no storage write sit between a visitor and the model. The conversation row comes
   * from the caller: when its last message is the newest one stored here, it is current; when it is
   * one of the messages kept here, the row was read between this object's writes (a caller that
   * waited for the turns before its own), and what the later ones did to it is applied again
   * (`afterMessage`): only this object writes a conversation's row after its creation, through its
   * messages and handoffs, and a handoff has the row read again. Otherwise both come from D1 in one
   * round trip. Should a stale instance ever write beside a new one, D1's unique (conversation,
   * sequence) index refuses the duplicate.
   */
  async #load(
    id: string,
    created?: ConversationRow,
    given?: ConversationRow,
  ): Promise<{ conversation: ConversationRow; recent: MessageRow[]; view: number }> {
    const view = this.#writes.view;
    if (created) {
      this.#sequence ??= 0;
      if (!this.#recent) {
        this.#recent = [];
        this.#question = null;
      }
      return { conversation: created, recent: this.#recent, view };
    }
    const recent = this.#recent;
    if (given && recent) {
      // The newest message the caller's row had seen: it must be one kept here, stored after the latest handoff.
      let seen =
        given.lastMessageAt === null ? recent.length : recent.findIndex((m) => m.createdAt === given.lastMessageAt);
      // Two messages of one millisecond (stored before this object made times unique): which one the row saw is
      // unknown.
      if (seen >= 0 && recent[seen + 1]?.createdAt === given.lastMessageAt) seen = -1;
      const after =
        seen === recent.length
          ? recent.length === this.#sequence && this.#handoffAt === 0
          : seen >= 0 && recent[seen].sequence > this.#handoffAt;
      if (after) return { conversation: recent.slice(0, seen).reduceRight(afterMessage, given), recent, view };
    }
    // Not loaded yet: a first turn may be under way in the worker (holdForFirstTurn).
    if (this.#sequence === null) await this.#firstTurnStored();
    await this.#writes.idle();
    // The conversation's messages D1 still holds (a first turn the worker stored) are copied into the store first.
    const data = this.#dataPlane;
    const [[conversation]] = await Promise.all([
      data.select().from(conversations).where(eq(conversations.id, id)),
      this.#messages.sync(client(data), id),
    ]);
    if (!conversation) throw new Error(`conversation ${id} does not exist`);
    const { recent: loaded, question } = this.#messages.history(id, HISTORY_MESSAGES);
    this.#sequence ??= loaded[0]?.sequence ?? 0;
    this.#lastAt = Math.max(this.#lastAt, loaded[0]?.createdAt ?? 0);
    if (this.#handoffAt === Infinity) this.#handoffAt = this.#sequence;
    this.#recent = loaded;
    this.#question = question ?? null;
    return { conversation, recent: loaded, view: this.#writes.view };
  }

  /**
   * The conversation's row as the writes queued so far left it (`seen`: as a turn read it, when it is gone). Read again
   * while an operator's change is queued meanwhile, so what the caller queues next, in the same tick, follows them all.
   */
  async #asWritten(seen: ConversationRow): Promise<ConversationRow> {
    for (;;) {
      const changes = this.#changes;
      await this.#writes.idle();
      const [row] = await this.#dataPlane.select().from(conversations).where(eq(conversations.id, seen.id));
      if (this.#changes === changes) return row ?? seen;
    }
  }

  /** Settles once a first turn run by the worker is stored or failed (at once when there is none). */
  #firstTurnStored(): Promise<void> | undefined {
    if (this.#firstTurn) return this.#firstTurn.done;
    const until = this.ctx.storage.kv.get<number>(FIRST_TURN_KEY);
    if (until !== undefined) return this.#holdUntil(until);
  }

  #holdUntil(until: number): Promise<void> {
    if (this.#firstTurn) return this.#firstTurn.done;
    let resolve!: () => void;
    const done = new Promise<void>((r) => (resolve = r));
    const end = () => {
      clearTimeout(timer);
      this.ctx.storage.kv.delete(FIRST_TURN_KEY);
      if (this.#firstTurn?.done === done) this.#firstTurn = null;
      resolve();
    };
    // Past `until` the worker is taken for dead: its reply, should it still come, meets D1's unique
    // (conversation, sequence) index instead of a second sequence 2.
    const timer = setTimeout(end, Math.max(0, until - Date.now()));
    this.#firstTurn = { done, end };
    return done;
  }

  /**
   * A turn's store (services/conversation/turn.ts): messages in this object's order, written by
   * #commit, and this object's subscribers as the watchers. `created`: the turn's first message
   * creates the conversation (stored in its batch). `view`: the write queue's view it was loaded in.
   */
  #store(view: number, conversation: ConversationRow, created = false): TurnStore {
    let creates = created;
    const changes = this.#changes; // the operators' changes the turn's row has seen
    // What the outboxes of the turn's messages bind, read beside the model's request (a per-isolate cache: none
    // once the inbox is in use), never between a reply and its batch.
    const config = outboxConfig(this.#db, conversation.inboxId);
    config.catch(() => undefined); // told by the messages that wait for it
    return {
      env: this.env,
      db: this.#db,
      data: this.#dataPlane,
      waitUntil: (p) => this.ctx.waitUntil(p),
      next: (conversation, fields) => this.#prepare(conversation, fields),
      write: (row, before, after, shown, assistant) => {
        const first = creates;
        creates = false;
        return this.#commit(row, first, before, view, changes, config, after, shown, assistant);
      },
      watch: (conversationId, replyId, message) => this.#watch(conversationId, replyId, message),
    };
  }

  /** A message with the next sequence number and a later time than the one before (its writes are built when it is
   * stored: see #commit). */
  #prepare(conversation: ConversationRow, fields: MessageFields): MessageRow {
    if (this.#sequence === null) throw new Error("the conversation is not loaded");
    const row = sequencedMessage(conversation, fields, ++this.#sequence, this.#lastAt);
    this.#lastAt = row.createdAt;
    return row;
  }

  /**
   * Subscribers see a reply while it is produced (and `follow` finds it), after the message it
   * answers (broadcast once stored); its stored message follows what they were shown.
   */
  #watch(conversationId: string, replyId: string, message: Writing): ReplyWatch {
    let shown: Promise<unknown> = message.stored.catch(() => undefined);
    const live = { conversationId, text: "" };
    this.#live.set(replyId, live);
    // Told after the message it answers, as the reply's deltas are.
    shown = shown.then(() => this.#tellReplying());
    return {
      delta: (text) => {
        shown = shown.then(() => {
          live.text += text;
          this.#broadcast("delta", { conversationId, messageId: replyId, content: text });
        });
      },
      event: (event, data) => {
        shown = shown.then(() => this.#broadcast(event, data));
      },
      // Told after the message it answers too: a model that fails at once (a 500) fails before that message is stored,
      // and subscribers were told "not replying", then the message, and never that a reply had begun.
      failed: () => {
        shown = shown.then(() => {
          this.#live.delete(replyId);
          this.#broadcast("reply_failed", { conversationId, messageId: replyId });
          this.#tellReplying();
        });
      },
      shown: () => shown,
      // After its stored message was told (or its write failed).
      done: () => {
        this.#live.delete(replyId);
        this.#tellReplying();
      },
    };
  }

  /**
   * Queues a prepared message for storing once `after` settles and `config` (what its outboxes bind) is read, with
   * its conversation when it creates it and what its effects store beside it (one batch, see WriteQueue); it is kept in
   * memory as the newest message at once, and forgotten with the rest should its batch fail. Once
   * stored, after the message before it and `shown`, subscribers get it and its effects run
   * (services/conversation/effects.ts). The statements are built when it is queued: building them
   * costs the local runtime's one thread, which the model's request needs first.
   */
  #commit(
    row: MessageRow,
    creates: boolean,
    seen: ConversationRow,
    view: number,
    changes: number,
    config: Promise<OutboxConfig>,
    after: Promise<unknown>,
    shown?: Promise<unknown>,
    assistant?: FiguredAssistant,
  ): Writing {
    const db = this.#dataPlane;
    const copies = creates ? contactCopyWrites(this.env, db, seen.organizationId, seen.id, seen.contactId) : [];
    // An operator's change queued since the turn read the conversation (a take-over, a resolve while the model
    // answers): the message is built on the row as that change left it, and moves its state only if it is still as the
    // turn saw it (movesState), so a reply's handoff does not queue again a conversation a person took.
    const current = Promise.all([config, copies, after]).then(([config, copies]) =>
      creates || this.#changes === changes
        ? { config, copies, conversation: seen, moves: true }
        : this.#asWritten(seen).then((now) => ({
            config,
            copies,
            conversation: now,
            moves: movesState(seen, now, row),
          })),
    );
    const queued = current.then(({ config, copies, conversation, moves }) => {
      // Messages are queued in the order of their sequence (a reply after the message it answers, a
      // turn after the one before): the question is the latest incoming one queued before this one.
      const question = this.#question;
      if (row.type === "incoming") this.#question = row;
      const leaves = messageLeaves(conversation, row, moves);
      const effects = effectStatements(db, conversation, row, config, leaves);
      const written = this.#writes.write(
        [
          ...copies,
          ...(creates ? conversationInserts(db, conversation) : []),
          ...messageWrites(db, conversation, row, question, assistant ?? null, moves),
          ...effects.statements,
        ],
        view,
      );
      if (this.#recent) this.#recent = [row, ...this.#recent].slice(0, HISTORY_MESSAGES);
      return { written, effects, conversation, leaves };
    });
    // Announced in sequence order, after the message before it: one batch may store several.
    const previous = this.#announced;
    const stored = queued.then(async ({ written, effects, conversation, leaves }) => {
      const results = await written;
      const own = effects.resultsFrom(results, results.length - effects.statements.length);
      // Its own store holds only what D1 stored (durable-objects/conversation-store.ts).
      this.#messages.put(row);
      // A channel delivery its batch made (channelEffect) is shown on it as each later state is (the cron should
      // this fail). Not in the batch: a statement more for every reply of an inbox without a channel.
      if (own.get(channelEffect)?.results.length)
        this.ctx.waitUntil(this.deliveryState(conversation.organizationId, conversation.id, row.id));
      await previous;
      await shown;
      const record = messageRecord(row);
      // Subscribers are visitors (the widget's live stream): an operator's private note is not theirs.
      if (!row.private) for (const sse of this.#subscribers) sse.send(record, "message");
      // The handoff the assistant's words make (its handoff reply queues the conversation), told after them as an
      // operator's change is: a visitor read that someone would come only once the page was loaded again.
      if (leaves.progressStatus === "waiting_for_human" && conversation.progressStatus !== "waiting_for_human")
        this.#broadcast("state", {
          conversationId: conversation.id,
          status: leaves.status,
          progressStatus: leaves.progressStatus,
          agent: null,
        } satisfies ConversationStateEvent);
      const batch = {
        env: this.env,
        waitUntil: (p: Promise<unknown>) => this.ctx.waitUntil(p),
        organizationId: conversation.organizationId,
        created: creates ? conversation : null,
      };
      runStored(batch, [{ message: row, record, conversation: leaves, before: conversation, results: own }]);
      return row;
    });
    this.#announced = stored.catch(() => undefined);
    return { queued: queued.then(() => undefined), stored, aheadOfReply: true };
  }

  #broadcast(
    event: "delta" | "reply_failed" | "tool_call" | "tool_result" | "state" | "typing" | "replying",
    data: unknown,
  ) {
    for (const sse of this.#subscribers) sse.send(data, event);
  }
}

bodyEvaluated(Conversation);
