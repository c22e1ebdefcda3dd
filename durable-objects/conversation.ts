import { DurableObject } from "cloudflare:workers";
import { and, desc, eq, lt } from "drizzle-orm";
import type { Bindings } from "../src/env";
import { getDb } from "../src/db";
import { chatbots, conversations, messages } from "../src/db/schema";
import { uuidv7 } from "../src/lib/ids";
import { messageWrites, type MessageRow, type NewMessage } from "../src/services/conversations";
import { generateReply } from "../src/services/replies";
import { SseWriter } from "../src/services/sse";
import { messageRecord, type MessageRecord } from "../src/routes/messages/schema";

export interface SenderInput {
  id: string | null;
  name: string;
  avatar: string | null;
}

/** Message fields a caller supplies; the object adds ids, sequence and sender. */
export type MessageInput = Pick<NewMessage, "content" | "contentPayload" | "attachments" | "canvas" | "queryMetadata" | "metadata" | "skillIds" | "toolIds">;

export interface TurnInput {
  conversationId: string;
  sender: SenderInput & { type: "contact" | "user" };
  message: MessageInput;
}

export interface TurnResult {
  incoming: MessageRecord;
  reply: MessageRecord | null;
}

const HISTORY_MESSAGES = 20;
const PENDING_KEY = "pendingReply";
const PENDING_RETRY_MS = 30_000;
const MAX_REPLY_ATTEMPTS = 3;

/**
 * One instance per conversation (`idFromName(conversationId)`). Every write to the conversation
 * goes through it: it hands out the strictly increasing message sequence and runs one turn at a
 * time (the incoming message, then the assistant's reply), so concurrent senders never interleave.
 * A reply is stored in one batch once complete, so a crash never leaves half a message; a reply
 * owed to an asynchronous message is remembered and retried by an alarm if the object dies.
 */
export class Conversation extends DurableObject<Bindings> {
  #chain: Promise<unknown> = Promise.resolve();
  #db = getDb(this.env.DB);

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      this.ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS sequence (id INTEGER PRIMARY KEY CHECK (id = 1), value INTEGER NOT NULL)");
    });
  }

  /** A visitor's message and, when auto reply is on, the assistant's answer: resolves when both are stored. */
  converse(input: TurnInput): Promise<TurnResult> {
    return this.#startTurn(input, null, false).work;
  }

  /** The same turn, answered as soon as the visitor's message is stored (the reply follows). */
  async post(input: TurnInput): Promise<MessageRecord> {
    const { work, receipt } = this.#startTurn(input, null, true);
    this.ctx.waitUntil(work.catch(() => undefined));
    return receipt;
  }

  /** The same turn, with the reply streamed as server-sent events (CONTRACT section 7). */
  stream(input: TurnInput): ReadableStream<Uint8Array> {
    const sse = new SseWriter();
    this.#startTurn(input, sse, false).work.catch((err) => {
      sse.send(errorBody(err), "error");
      sse.close();
    });
    return sse.readable;
  }

  #startTurn(input: TurnInput, stream: SseWriter | null, owed: boolean) {
    let stored!: (m: MessageRecord) => void;
    let failed!: (e: unknown) => void;
    const receipt = new Promise<MessageRecord>((resolve, reject) => ((stored = resolve), (failed = reject)));
    const work = this.#exclusive(async (): Promise<TurnResult> => {
      const conversation = await this.#conversation(input.conversationId);
      const incoming = await this.#write(conversation, {
        ...input.message,
        type: "incoming",
        senderType: input.sender.type,
        senderId: input.sender.id,
        senderName: input.sender.name,
        senderAvatar: input.sender.avatar,
      });
      const answer = conversation.autoReplyEnabled && !!conversation.chatbotId;
      if (answer && owed) {
        this.ctx.storage.kv.put(PENDING_KEY, { incomingId: incoming.id, attempts: 0 });
        await this.ctx.storage.setAlarm(Date.now() + PENDING_RETRY_MS);
      }
      stored(messageRecord(incoming));
      if (!answer) {
        stream?.send({ conversationId: conversation.id, messageId: null, content: "", done: true, message: null });
        stream?.close();
        return { incoming: messageRecord(incoming), reply: null };
      }
      const reply = await this.#reply(conversation, incoming, stream);
      return { incoming: messageRecord(incoming), reply: messageRecord(reply) };
    });
    work.catch(failed);
    return { work, receipt };
  }

  /** A human agent's reply: stored in order, no assistant answer. */
  async agentMessage(conversationId: string, sender: SenderInput, message: MessageInput): Promise<MessageRecord> {
    return this.#exclusive(async () => {
      const conversation = await this.#conversation(conversationId);
      const row = await this.#write(conversation, { ...message, type: "outgoing", senderType: "user", senderId: sender.id, senderName: sender.name, senderAvatar: sender.avatar });
      return messageRecord(row);
    });
  }

  /** Safety net for asynchronous replies lost with a crashed instance. */
  async alarm() {
    const pending = this.ctx.storage.kv.get<{ incomingId: string; attempts: number }>(PENDING_KEY);
    if (!pending) return;
    await this.#exclusive(async () => {
      const current = this.ctx.storage.kv.get<{ incomingId: string; attempts: number }>(PENDING_KEY);
      if (!current) return;
      const [incoming] = await this.#db.select().from(messages).where(eq(messages.id, current.incomingId));
      if (!incoming || current.attempts >= MAX_REPLY_ATTEMPTS) {
        this.ctx.storage.kv.delete(PENDING_KEY);
        return;
      }
      this.ctx.storage.kv.put(PENDING_KEY, { ...current, attempts: current.attempts + 1 });
      await this.ctx.storage.setAlarm(Date.now() + PENDING_RETRY_MS);
      const conversation = await this.#conversation(incoming.conversationId);
      if (conversation.autoReplyEnabled && conversation.chatbotId) await this.#reply(conversation, incoming, null);
      else this.ctx.storage.kv.delete(PENDING_KEY);
    });
  }

  /** Next sequence number of this conversation, from the object's own storage. */
  nextSequence(): number {
    return this.ctx.storage.sql
      .exec<{ value: number }>("INSERT INTO sequence (id, value) VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET value = value + 1 RETURNING value")
      .one().value;
  }

  #exclusive<T>(op: () => Promise<T>): Promise<T> {
    const run = this.#chain.then(op, op);
    this.#chain = run.catch(() => undefined);
    return run;
  }

  async #conversation(id: string) {
    const [row] = await this.#db.select().from(conversations).where(eq(conversations.id, id));
    if (!row) throw new Error(`conversation ${id} does not exist`);
    return row;
  }

  async #write(conversation: typeof conversations.$inferSelect, fields: Omit<NewMessage, "organizationId" | "conversationId" | "sequence">): Promise<MessageRow> {
    const { row, statements } = messageWrites(this.#db, conversation, {
      ...fields,
      id: fields.id ?? uuidv7(),
      organizationId: conversation.organizationId,
      conversationId: conversation.id,
      sequence: this.nextSequence(),
    });
    await this.#db.batch(statements as never);
    return row as MessageRow;
  }

  async #reply(conversation: typeof conversations.$inferSelect, incoming: MessageRow, stream: SseWriter | null): Promise<MessageRow> {
    const [chatbot] = await this.#db.select().from(chatbots).where(eq(chatbots.id, conversation.chatbotId!));
    const history = await this.#db
      .select()
      .from(messages)
      .where(and(eq(messages.conversationId, conversation.id), lt(messages.sequence, incoming.sequence)))
      .orderBy(desc(messages.sequence))
      .limit(HISTORY_MESSAGES);
    const replyId = uuidv7();
    const reply = await generateReply(this.env, this.#db, { chatbot, history: history.reverse(), incoming }, (text) =>
      stream?.send({ conversationId: conversation.id, messageId: replyId, content: text, done: false }),
    );
    const row = await this.#write(conversation, {
      id: replyId,
      type: "outgoing",
      senderType: "chatbot",
      senderId: chatbot.id,
      senderName: chatbot.name,
      content: reply.content,
      citations: reply.citations,
      citationNodes: reply.citationNodes,
    });
    this.ctx.storage.kv.delete(PENDING_KEY);
    stream?.send({ conversationId: conversation.id, messageId: replyId, content: "", done: true, message: messageRecord(row) });
    stream?.close();
    return row;
  }
}

function errorBody(err: unknown) {
  const status = (err as { status?: number }).status;
  return { detail: err instanceof Error ? err.message : "The reply failed.", code: status === 400 ? "invalid" : "upstream_error" };
}
