// One turn of a conversation, wherever it runs (docs/decisions.md, "The conversation pipeline"):
// the turn's message is stored, the assistant answers it (streamed to the caller and to the
// conversation's watchers), the reply is stored after it, and the effects of both run (effects.ts).
// A TurnStore says where messages go: the conversation's object (durable-objects/conversation.ts)
// for every conversation that exists, the worker for a new conversation's first turn (first-turn.ts).
import type { Bindings, Db } from "../../env";
import { uuidv7 } from "../../lib/ids";
import type { AssistantForReply } from "../chatbots/for-reply";
import {
  afterMessage,
  laterThan,
  messageRow,
  replyFields,
  type ConversationRow,
  type MessageRow,
  type NewMessage,
} from "../conversations";
import type { QueryMetadata } from "../knowledge/query-scope";
import { messageRecord } from "../records/messages";
import type { SseWriter } from "../sse";
import { runReplied, runReplyFailed, type TurnEnd } from "./effects";
import type { AgentOptions } from "../agent/reply";
import { generateReply, type Reply } from "./replies";
import {
  handoffFor,
  handoffReply,
  handoffSettings,
  outsideHours,
  unansweredInARow,
  type HandoffReason,
} from "./handoff";
import { clockNow } from "../../lib/clock";
import { turnError, type TurnError, type TurnResult } from "./turn-result";
import type { FiguredAssistant } from "../statistics/message-figures";

/**
 * How long after the model is asked a streamed turn stores the visitor's message
 * (docs/decisions.md, "Streaming latency"): the model's request goes first.
 */
export const VISITOR_WRITE_DELAY_MS = 20;

export type Assistant = Omit<AssistantForReply, "defaultInboxId">;
/** What a reply needs besides its message: the assistant with its model and knowledge bases, and the history, oldest
 * first. */
export type ReplyContext = Assistant & {
  history: MessageRow[];
  contactQueryMetadata?: QueryMetadata | null;
  /** Completions' `waitForAttachments` (default true): wait for attached documents' text before answering. */
  waitForAttachments?: boolean;
  /** An agent reply this one continues (tool results posted since). */
  continues?: MessageRow;
};
/** A message as a turn makes it; the store adds the conversation, sequence and time (`next`). */
export type MessageFields = Omit<NewMessage, "organizationId" | "conversationId" | "sequence">;

/**
 * The message `fields` make as the conversation's `sequence`th, its time later than `lastAt` (the one before): what
 * every store's `next` builds, each from the sequence and time it keeps.
 */
export const sequencedMessage = (
  conversation: ConversationRow,
  fields: MessageFields,
  sequence: number,
  lastAt: number,
): MessageRow =>
  messageRow({
    ...fields,
    id: fields.id ?? uuidv7(),
    organizationId: conversation.organizationId,
    conversationId: conversation.id,
    sequence,
    createdAt: laterThan(lastAt, fields.createdAt ?? Date.now()),
  }) as MessageRow;

/** A message on its way to D1: `queued` once its write is under way or queued, `stored` once stored. */
export interface Writing {
  queued: Promise<void>;
  stored: Promise<MessageRow>;
  /** It may be written, and fail, while the reply to it is produced (which then stops: it would not be stored). */
  aheadOfReply: boolean;
}
export const storedAlready = (row: MessageRow): Writing => ({
  queued: Promise.resolve(),
  stored: Promise.resolve(row),
  aheadOfReply: false,
});

/** Where a turn's messages go, and who watches them. */
export interface TurnStore {
  readonly env: Bindings;
  /** The control plane (assistants, inboxes, tools). */
  readonly db: Db;
  /** The conversation's organization's data plane (its messages' batches, records, attachments). */
  readonly data: Db;
  waitUntil(p: Promise<unknown>): void;
  /** A message of the conversation, with the next sequence number and a later time than the one before. */
  next(conversation: ConversationRow, fields: MessageFields): MessageRow;
  /**
   * Stores `row` (`before`: the conversation as the message before it left it), and runs its
   * effects once stored, after `shown`. `after` settles when it may be written at the earliest; a
   * store may keep it longer, to store it in one batch with the turn's next message or at `end`. `assistant`: the
   * conversation's as read for this message, which an assistant's message is counted with (message-figures.ts).
   */
  write(
    row: MessageRow,
    before: ConversationRow,
    after: Promise<unknown>,
    shown?: Promise<unknown>,
    assistant?: FiguredAssistant,
  ): Writing;
  /** The turn is over (its reply stored, or failed): what the store still keeps is written now. */
  end?(): void;
  /** Watchers of the conversation (its object's subscribers), told of a reply while it is produced. */
  watch?(conversationId: string, replyId: string, message: Writing): ReplyWatch;
}

export interface ReplyWatch {
  delta(text: string): void;
  event(name: "tool_call" | "tool_result", data: unknown): void;
  failed(): void;
  /** Settles once the watchers have been shown the reply so far: its stored message follows. */
  shown(): Promise<unknown>;
  done(): void;
}

export interface Turn {
  /** The conversation as the turn finds it. */
  conversation: ConversationRow;
  /** The turn's message (a visitor's, or a person's of the team), made by the store's `next`. */
  message: MessageRow;
  /** What the assistant's reply needs; null when it does not answer (auto reply off, no assistant, a person's message).
   * */
  context: Promise<ReplyContext> | null;
  /** The caller's stream (CONTRACT section 7): reply deltas and tool events, then `done` or `error`. */
  stream?: SseWriter | null;
  /** The request's id (`X-Request-Id`), carried by a stream's `event: error` and the failure's log line. */
  requestId?: string;
  /** The conversation's assistant, for a message of the assistant's side said outside a reply (see TurnStore.write). */
  assistant?: FiguredAssistant;
  /** Why the assistant does not answer though it would (no `context` then): the turn's result carries it as `error`. */
  refused?: TurnError;
}

export interface TurnRun {
  /** The turn's message on its way. */
  message: Writing;
  /** Settles once the reply is queued for storing, failed, or not to be: the conversation's next turn may begin. */
  queued: Promise<void>;
  /**
   * Settles once the turn is over: its messages stored, or the reply's failure told (`error`; the
   * message stays stored). Rejects when the message itself could not be stored.
   */
  result: Promise<TurnResult>;
}

/** A turn: its message stored, and the assistant's answer when `context` is given. */
export function runTurn(store: TurnStore, turn: Turn): TurnRun {
  const { conversation, message, context, stream = null } = turn;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  // Streamed, the model is asked first and the message is written VISITOR_WRITE_DELAY_MS later, or
  // when the reply ends or fails if sooner. Otherwise it may be written while the model answers.
  if (context && stream) setTimeout(release, VISITOR_WRITE_DELAY_MS);
  else release();
  const written = store.write(message, conversation, released, undefined, turn.assistant);
  if (!context) {
    const result = written.stored.then(
      (): TurnResult => ({
        incoming: messageRecord(message),
        reply: null,
        conversation: afterMessage(conversation, message),
        ...(turn.refused ? { error: turn.refused } : {}),
      }),
    );
    return { message: written, queued: written.queued.catch(() => undefined), result: told(result, stream, turn) };
  }
  const replying = answer(
    store,
    { conversation, incoming: message, context, visitor: written, stream, requestId: turn.requestId },
    release,
  );
  return {
    message: written,
    queued: replying.then(
      () => undefined,
      () => undefined,
    ),
    result: told(
      replying.then((r) => r.result),
      stream,
      turn,
    ),
  };
}

/**
 * The assistant's answer to `incoming`, on its way (`visitor`) or stored (`storedAlready`);
 * `answered` is called once the model is done. Resolves once the reply is queued for storing.
 */
export async function answer(
  store: TurnStore,
  a: Omit<Turn, "message" | "context"> & {
    incoming: MessageRow;
    context: Promise<ReplyContext> | ReplyContext;
    visitor: Writing;
  },
  answered: () => void = () => {},
): Promise<{ result: Promise<TurnResult> }> {
  const { conversation, incoming, visitor, stream = null } = a;
  // The visitor's message not stored: nor will the reply be. (Only then: a signal costs the model's request an
  // AbortSignal.any.)
  const abort = visitor.aheadOfReply ? new AbortController() : null;
  if (abort) visitor.stored.catch(() => abort.abort());
  const replyId = uuidv7();
  const watch = store.watch?.(conversation.id, replyId, visitor);
  const sendDelta = stream ? deltaSender(stream, conversation.id, replyId) : null;
  const endOf = (chatbot: ReplyContext["chatbot"]): TurnEnd => ({
    env: store.env,
    db: store.data,
    waitUntil: (p) => store.waitUntil(p),
    conversation,
    chatbot,
    incoming,
  });
  let context: ReplyContext | undefined;
  let reply: Reply;
  try {
    context = await a.context;
    reply = await replyTo(
      store,
      conversation,
      incoming,
      context,
      (text) => {
        sendDelta?.(text);
        watch?.delta(text);
      },
      {
        signal: abort?.signal,
        replyId,
        // Nobody sees the reply before it is whole: the model may answer in one response.
        whole: !stream && !watch,
        onResponse: () => stream?.open(),
        // Agent replies: tool calls and results, in order, between the text deltas.
        onEvent: (event, data) => {
          stream?.send(data, event);
          watch?.event(event, data);
        },
      },
    );
  } catch (err) {
    watch?.failed();
    answered();
    store.end?.();
    const error = turnError(err, a.requestId);
    const chatbot = context?.chatbot; // none when the assistant could not be read
    const result = visitor.stored.then(async (): Promise<TurnResult> => {
      if (chatbot) await runReplyFailed(endOf(chatbot), err);
      return { incoming: messageRecord(incoming), reply: null, error };
    });
    return { result };
  }
  answered();
  const answeredBy = reply.contentPayload?.handoff ? null : (context.model?.id ?? null); // no model said the handoff
  const row = store.next(conversation, replyFields(context.chatbot, answeredBy, replyId, reply));
  // Stored as the visitor's message left the conversation (the same statements; the live inbox shows that state).
  const afterIncoming = afterMessage(conversation, incoming);
  const written = store.write(row, afterIncoming, visitor.queued, watch?.shown(), context.chatbot);
  await written.queued;
  const result = written.stored.then(
    (stored): TurnResult => {
      watch?.done();
      store.end?.();
      runReplied(endOf(context.chatbot), stored);
      return {
        incoming: messageRecord(incoming),
        reply: messageRecord(stored),
        conversation: afterMessage(afterIncoming, stored),
      };
    },
    (err) => {
      watch?.done();
      store.end?.();
      throw err;
    },
  );
  return { result };
}

/**
 * The reply's text and records: the handoff message when the visitor asks for a person, else the
 * model's answer, followed by the handoff message when it is one too many that could not answer
 * (handoff.ts).
 */
async function replyTo(
  store: TurnStore,
  conversation: ConversationRow,
  incoming: MessageRow,
  context: ReplyContext,
  emit: (text: string) => void,
  options: AgentOptions,
): Promise<Reply> {
  const settings = handoffSettings(context.chatbot.handoff);
  // The handoff message for `reason`, after `reply` when the model answered first.
  const handOff = async (reason: HandoffReason, reply?: Reply) =>
    handoffReply(
      settings,
      reason,
      {
        content: incoming.content,
        earlier: context.history.filter((m) => m.senderType === "contact").map((m) => m.content),
      },
      reply,
      await outsideHours(store.db, conversation.inboxId, clockNow(store.env)),
    );
  const asked = handoffFor(settings, incoming);
  if (asked) {
    const reply = await handOff(asked);
    emit(reply.content);
    return reply;
  }
  const { handsOff: toolAsked, ...reply } = await generateReply(
    store.env,
    store.db,
    { ...context, incoming, conversation, data: store.data },
    emit,
    options,
  );
  const reason =
    toolAsked && settings.enabled
      ? "tool"
      : reply.unanswered && unansweredInARow(settings, context.history)
        ? "unanswered"
        : null;
  if (!reason) return reply;
  const handedOff = await handOff(reason, reply);
  emit(handedOff.content.slice(reply.content.length));
  return handedOff;
}

/** The caller's stream, told how the turn ended and closed. */
function told(
  result: Promise<TurnResult>,
  stream: SseWriter | null,
  turn: Pick<Turn, "conversation" | "requestId">,
): Promise<TurnResult> {
  if (!stream) return result;
  const conversationId = turn.conversation.id;
  result.then(
    ({ incoming, reply, error }) => {
      // `incomingId`: the message was stored, only the reply failed (a client must not send it again).
      const { detail, code } = error ?? {};
      if (error)
        stream.send({ detail, code, requestId: turn.requestId, conversationId, incomingId: incoming.id }, "error");
      else stream.send({ conversationId, messageId: reply?.id ?? null, content: "", done: true, message: reply });
      stream.close();
    },
    (err) => endStream(stream, err, { conversationId, requestId: turn.requestId }),
  );
  return result;
}

/** A stream whose turn failed without a result (its message not stored, or the turn never began): `event: error`,
 * closed. */
export function endStream(stream: SseWriter, err: unknown, turn: { conversationId: string; requestId?: string }) {
  const { code, detail } = turnError(err, turn.requestId);
  stream.send({ detail, code, requestId: turn.requestId, conversationId: turn.conversationId }, "error");
  stream.close();
}

/**
 * Sends a reply's delta events, `{"conversationId","messageId","content","done":false}`, with only
 * the content encoded per event: the rest is the same for every event of the reply.
 */
function deltaSender(stream: SseWriter, conversationId: string, messageId: string) {
  const head = `data: ${JSON.stringify({ conversationId, messageId }).slice(0, -1)},"content":`;
  return (text: string) => stream.sendEncoded(`${head}${JSON.stringify(text)},"done":false}\n\n`);
}
