// A new conversation's first turn, run in the worker rather than in the conversation's object
// (docs/decisions.md, "Conversations and the Durable Object", "The streamed first byte"): the same
// turn (turn.ts), with a store of its own. No one can know the conversation before this response
// names it, so no other write can come between; its messages wait in D1 until the conversation's
// object copies them into its own store (handedOverMessage).
import { batch } from "../../db/prepared";
import type { Bindings, Db } from "../../env";
import type { AssistantForReply } from "../chatbots/for-reply";
import {
  afterMessage,
  conversationObject,
  handedOverMessage,
  incomingFields,
  messageWrites,
  newConversationWrites,
  type ConversationRow,
  type MessageRow,
  type NewMessage,
  type SenderInput,
} from "../conversations";
import { DEFAULT_TIMEOUT_MS } from "../llm/openai-compatible";
import { countSetting, retryPolicy } from "../llm/retries";
import type { QueryMetadata } from "../knowledge/query-scope";
import { contactCopyWrites } from "../shards/contact-copies";
import { messageRecord } from "../records/messages";
import { SseWriter } from "../sse";
import { effectStatements, runStored } from "./effects";
import { outboxConfig, type OutboxConfig } from "./outbox-config";
import type { FiguredAssistant, Question } from "../statistics/message-figures";
import { runTurn, sequencedMessage, type Assistant, type MessageFields, type TurnStore, type Writing } from "./turn";
import type { TurnResult } from "./turn-result";
import { logError, logWarn } from "../../lib/log";

export interface FirstTurn {
  /** The conversation this turn creates (see newConversation). */
  conversation: ConversationRow;
  assistant: Assistant;
  sender: SenderInput & { type: "contact" };
  message: Partial<NewMessage>;
  contactQueryMetadata: QueryMetadata | null;
  /** The request's id, for the failure's log line. */
  requestId?: string;
}

/** Beyond the longest a reply may take (every attempt and wait), before the object stops waiting for a worker taken for
 * dead. */
const HOLD_MARGIN_MS = 30_000;

/**
 * Whether a new conversation's first turn may be answered without its Durable Object. Attachments are read from the
 * stored conversation, so those turns go through the object as every other turn does. An agent or workflow reply is
 * answered here when not streamed: its tool records name the conversation and the reply before either is stored, as
 * they do in the object; streamed, its rounds of tools may outlast what the object agrees to hold later turns for
 * (`holdMs`).
 */
export const answersWithoutObject = (
  chatbot: AssistantForReply["chatbot"],
  message: Partial<NewMessage>,
  streamed: boolean,
) => !message.attachments?.length && (!streamed || (chatbot.replyMode !== "agent" && chatbot.replyMode !== "workflow"));

/**
 * Answered directly: the conversation, the visitor's message, the reply and what their effects
 * store are written in one batch once the reply is complete; when the reply fails, the
 * conversation and the visitor's message are, then the failure's record.
 */
export function answerFirstTurn(
  env: Bindings,
  db: Db,
  data: Db,
  waitUntil: (p: Promise<unknown>) => void,
  turn: FirstTurn,
): Promise<TurnResult> {
  return run(new FirstTurnStore(env, db, data, waitUntil, turn.conversation, turn.assistant.chatbot, false), turn, null)
    .result;
}

/**
 * Streamed (CONTRACT section 7): nothing stands between the request and the model's. The first
 * event names the conversation while the reply is under way, so the visitor's message is stored
 * once the turn lets it (VISITOR_WRITE_DELAY_MS after the model is asked) and the conversation's
 * object has agreed to hold later turns until this one reports its reply stored or failed
 * (`holdForFirstTurn`): until the conversation is in D1 no route reaches its object, and from then
 * on the object waits, so a second turn always follows this one (sequences 3 and 4). A reply that
 * ends sooner is stored with the conversation in one batch and the object is never started.
 * Should the object not agree, the visitor's message waits for the reply's end.
 */
export async function streamFirstTurn(
  env: Bindings,
  db: Db,
  data: Db,
  waitUntil: (p: Promise<unknown>) => void,
  turn: FirstTurn,
): Promise<ReadableStream<Uint8Array>> {
  const sse = new SseWriter();
  // The turn goes on, and is stored, should the client leave.
  waitUntil(
    run(
      new FirstTurnStore(env, db, data, waitUntil, turn.conversation, turn.assistant.chatbot, true),
      turn,
      sse,
    ).result.catch(() => undefined),
  );
  // Handed over once the model has begun to answer (or the turn has ended): a response returned
  // sooner runs the rest of the request (its log line, the response's start) ahead of the model's
  // request on the local runtime's one thread ("Streaming latency").
  await sse.opened;
  return sse.readable;
}

function run(store: FirstTurnStore, turn: FirstTurn, stream: SseWriter | null) {
  const { conversation, assistant } = turn;
  const message = store.next(conversation, incomingFields(turn.sender, turn.message));
  const context = Promise.resolve({ ...assistant, history: [], contactQueryMetadata: turn.contactQueryMetadata });
  return runTurn(store, { conversation, message, context, stream, requestId: turn.requestId });
}

/**
 * The worker's store: it keeps the turn's messages and writes them in as few batches as it may,
 * the conversation with the first. Streamed, the visitor's message is written ahead of the reply
 * only once the conversation's object holds later turns (see streamFirstTurn).
 */
class FirstTurnStore implements TurnStore {
  #kept: { row: MessageRow; stored: (row: MessageRow) => void; failed: (err: unknown) => void }[] = [];
  #written: MessageRow[] = [];
  #writing: Promise<unknown> = Promise.resolve();
  #sequence = 0;
  #lastAt = 0;
  /** The object's answer when asked to hold later turns: it is told when this turn is over, whatever it answered. */
  #held: Promise<unknown> | null = null;
  /** What the outboxes bind, read beside the model's request (never between the reply and its batch). */
  #config: Promise<OutboxConfig>;

  constructor(
    readonly env: Bindings,
    readonly db: Db,
    readonly data: Db,
    readonly waitUntil: (p: Promise<unknown>) => void,
    readonly conversation: ConversationRow,
    readonly assistant: FiguredAssistant,
    readonly streamed: boolean,
  ) {
    this.#config = outboxConfig(db, conversation.inboxId);
    this.#config.catch(() => undefined); // told by the batch that waits for it
  }

  next(conversation: ConversationRow, fields: MessageFields): MessageRow {
    const row = sequencedMessage(conversation, fields, ++this.#sequence, this.#lastAt);
    this.#lastAt = row.createdAt;
    return row;
  }

  write(row: MessageRow, _before: ConversationRow, after: Promise<unknown>): Writing {
    const stored = new Promise<MessageRow>((resolve, reject) =>
      this.#kept.push({ row, stored: resolve, failed: reject }),
    );
    // The turn's first message waits for the next, or for the end, unless the stream lets it go first.
    if (row.sequence > 1) this.#flush();
    else if (this.streamed) after.then(() => this.#early());
    return { queued: Promise.resolve(), stored, aheadOfReply: this.streamed };
  }

  end() {
    const flushed = this.#flush();
    // After the object's answer: a release that overtook the request to hold would leave it holding.
    if (this.#held)
      this.waitUntil(Promise.all([flushed, this.#held]).then(() => release(this.env, this.conversation.id)));
  }

  #early() {
    if (!this.#kept.length) return;
    const held = conversationObject(this.env, this.conversation.id).holdForFirstTurn(Date.now() + holdMs(this.env));
    this.#held = held.then(
      () => this.#flush(),
      // Not held: the visitor's message waits for the reply's end (until then no route finds the conversation).
      (err) => logWarn("first turn not held", { conversationId: this.conversation.id, error: String(err) }),
    );
  }

  /** Writes what is kept, after what is being written; settles (never rejects) once done. */
  #flush(): Promise<unknown> {
    const kept = this.#kept.splice(0);
    if (kept.length) {
      const rows = kept.map((k) => k.row);
      const before = this.#written;
      this.#written = [...before, ...rows];
      this.#writing = this.#writing
        .then(() => this.#config)
        .then((config) =>
          storeTurn(this.env, this.data, this.waitUntil, this.conversation, this.assistant, rows, before, config),
        )
        .then(
          () =>
            kept.forEach((k) => {
              k.stored(k.row);
            }),
          (err) =>
            kept.forEach((k) => {
              k.failed(err);
            }),
        );
    }
    return this.#writing;
  }
}

/**
 * Stores messages of a conversation created by a first turn run here, with what their effects store beside them (the
 * webhook outbox) and a copy of its contact where needed, in one batch on the conversation's part of the data plane
 * (`db`), then runs the effects (effects.ts). `stored`: this conversation's messages already stored (none: the
 * conversation is stored with `rows`). `assistant`: the turn's. `config`: what the outboxes bind.
 */
async function storeTurn(
  env: Bindings,
  db: Db,
  waitUntil: (p: Promise<unknown>) => void,
  conversation: ConversationRow,
  assistant: FiguredAssistant,
  rows: MessageRow[],
  stored: MessageRow[],
  config: OutboxConfig,
) {
  const creates = !stored.length;
  const writes = creates
    ? [
        ...(await contactCopyWrites(env, db, conversation.organizationId, conversation.id, conversation.contactId)),
        ...newConversationWrites(db, conversation, rows, assistant),
      ]
    : [];
  let state = stored.reduce(afterMessage, conversation);
  let question: Question | null = null;
  for (const m of stored) if (m.type === "incoming") question = m;
  const entries = rows.map((row) => {
    if (!creates) writes.push(handedOverMessage(db, row), ...messageWrites(db, state, row, question, assistant));
    if (row.type === "incoming") question = row;
    const before = state;
    state = afterMessage(state, row);
    return { row, before, state, effects: effectStatements(db, before, row, config, state) };
  });
  const results = await batch(db, [...writes, ...entries.flatMap((e) => e.effects.statements)]);
  let at = writes.length;
  const messages = entries.map(({ row, before, state, effects }) => {
    const own = effects.resultsFrom(results, at);
    at += effects.statements.length;
    return { message: row, record: messageRecord(row), conversation: state, before, results: own };
  });
  runStored(
    { env, waitUntil, organizationId: conversation.organizationId, created: creates ? conversation : null },
    messages,
  );
}

/** Tells the conversation's object that the first turn is stored or failed; a fresh stub, as one that saw its object
 * reset stays broken. */
async function release(env: Bindings, conversationId: string) {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      return await conversationObject(env, conversationId).firstTurnDone();
    } catch (err) {
      if (attempt) logError("first turn not released", { conversationId, error: String(err) });
    }
  }
}

/** The longest a reply may take: every attempt of the model (MODEL_TIMEOUT_MS each) and the waits between them, plus a
 * margin. */
function holdMs(env: Bindings) {
  const { retries, maxDelayMs } = retryPolicy(env);
  const timeoutMs = countSetting(env.MODEL_TIMEOUT_MS) || DEFAULT_TIMEOUT_MS;
  return (retries + 1) * timeoutMs + retries * maxDelayMs + HOLD_MARGIN_MS;
}
