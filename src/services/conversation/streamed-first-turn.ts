import type { Bindings, Db } from "../../env";
import { uuidv7 } from "../../lib/ids";
import { conversationObject, incomingFields, laterThan, messageRow, replyFields, type MessageRow } from "../conversations";
import { DEFAULT_TIMEOUT_MS } from "../llm/openai-compatible";
import { countSetting, retryPolicy } from "../llm/retries";
import { messageRecord } from "../records/messages";
import { generateReply } from "./replies";
import { SseWriter } from "../sse";
import { runReplied, runReplyFailed } from "./effects";
import { storeTurn, type FirstTurn } from "./first-turn";
import { turnError } from "./turn-result";

/**
 * How long after the model is asked a streamed turn stores the visitor's message, here and in the
 * conversation object (docs/decisions.md, "Streaming latency").
 */
export const VISITOR_WRITE_DELAY_MS = 20;
/** Beyond the longest a reply may take (every attempt and wait), before the object stops waiting for a worker taken for dead. */
const HOLD_MARGIN_MS = 30_000;

/**
 * A new conversation's first turn, streamed (CONTRACT section 7), run here rather than in the
 * conversation's object (docs/decisions.md, "The streamed first byte"): nothing stands between the
 * request and the model's. The first event names the conversation while the reply is under way,
 * so the visitor's message is stored VISITOR_WRITE_DELAY_MS after the model is asked, and only
 * once the conversation's object has agreed to hold later turns until this one reports its reply
 * stored or failed (`holdForFirstTurn`): until the conversation is in D1 no route reaches its
 * object, and from then on the object waits, so a second turn always follows this one (sequences
 * 3 and 4). A reply that ends sooner is stored with the conversation in one batch and the object is
 * never started. Should the object not agree, the visitor's message waits for the reply's end.
 */
export async function streamFirstTurn(env: Bindings, db: Db, waitUntil: (p: Promise<unknown>) => void, turn: FirstTurn): Promise<ReadableStream<Uint8Array>> {
  const { conversation, assistant } = turn;
  const conversationId = conversation.id;
  const sse = new SseWriter();
  const incoming = messageRow({ ...incomingFields(turn.sender, turn.message), id: uuidv7(), organizationId: conversation.organizationId, conversationId, sequence: 1 }) as MessageRow;
  const replyId = uuidv7();
  const abort = new AbortController();

  let held = false; // the object was asked to hold: it is told the outcome, whatever it answered
  let early: Promise<boolean> | null = null; // true once the visitor's message is stored ahead of the reply
  const storeEarly = async () => {
    held = true;
    try {
      await conversationObject(env, conversationId).holdForFirstTurn(Date.now() + holdMs(env));
    } catch (err) {
      // Not held: the visitor's message waits for the reply's end (until then no route finds the conversation).
      console.warn(JSON.stringify({ level: "warn", message: "first turn not held", conversationId, error: String(err) }));
      return false;
    }
    await storeTurn(env, db, waitUntil, conversation, [incoming]);
    return true;
  };
  const timer = setTimeout(() => {
    early = storeEarly();
    early.catch(() => abort.abort()); // the visitor's message was not stored: nor will the reply be
  }, VISITOR_WRITE_DELAY_MS);

  const end = { env, db, waitUntil, conversation, chatbot: assistant.chatbot, incoming };
  const run = async () => {
    const delta = deltaEvent(conversationId, replyId);
    try {
      const answer = await generateReply(env, db, { ...assistant, history: [], incoming, conversation, contactQueryMetadata: turn.contactQueryMetadata }, (text) => sse.sendEncoded(delta(text)), { signal: abort.signal, replyId, onResponse: () => sse.open() });
      clearTimeout(timer);
      const ahead = (await early) ?? false;
      const reply = messageRow({ ...replyFields(assistant.chatbot, assistant.model?.id ?? null, replyId, answer), organizationId: conversation.organizationId, conversationId, sequence: 2, createdAt: laterThan(incoming.createdAt) }) as MessageRow;
      await storeTurn(env, db, waitUntil, conversation, ahead ? [reply] : [incoming, reply], ahead ? [incoming] : []);
      if (held) waitUntil(release(env, conversationId));
      sse.send({ conversationId, messageId: replyId, content: "", done: true, message: messageRecord(reply) });
      runReplied(end, reply);
    } catch (err) {
      clearTimeout(timer);
      const { code, detail } = turnError(err, turn.requestId);
      // The visitor's message stays stored (the error names the conversation, to be continued), with the failure's record.
      const ahead = await (early ?? Promise.resolve(false)).catch(() => null); // null: it could not be stored
      if (ahead === false) await storeTurn(env, db, waitUntil, conversation, [incoming]).then(() => runReplyFailed(end, err), (e) => console.error(String(e)));
      else if (ahead) await runReplyFailed(end, err);
      if (held) waitUntil(release(env, conversationId));
      sse.send({ detail, code, requestId: turn.requestId, conversationId }, "error");
    } finally {
      sse.close();
    }
  };
  // The turn goes on, and is stored, should the client leave.
  waitUntil(run());
  // Handed over once the model has begun to answer (or the turn has ended): a response returned
  // sooner runs the rest of the request (its log line, the response's start) ahead of the model's
  // request on the local runtime's one thread (as the object's stream did, "Streaming latency").
  await sse.opened;
  return sse.readable;
}

/** Tells the conversation's object that the first turn is stored or failed; a fresh stub, as one that saw its object reset stays broken. */
async function release(env: Bindings, conversationId: string) {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      return await conversationObject(env, conversationId).firstTurnDone();
    } catch (err) {
      if (attempt) console.error(JSON.stringify({ level: "error", message: "first turn not released", conversationId, error: String(err) }));
    }
  }
}

/** The longest a reply may take: every attempt of the model (MODEL_TIMEOUT_MS each) and the waits between them, plus a margin. */
function holdMs(env: Bindings) {
  const { retries, maxDelayMs } = retryPolicy(env);
  const timeoutMs = countSetting(env.MODEL_TIMEOUT_MS) || DEFAULT_TIMEOUT_MS;
  return (retries + 1) * timeoutMs + retries * maxDelayMs + HOLD_MARGIN_MS;
}

/**
 * A reply's delta events, `{"conversationId","messageId","content","done":false}`, with only the
 * content encoded per event: the rest is the same for every event of the reply.
 */
function deltaEvent(conversationId: string, messageId: string) {
  const head = `data: ${JSON.stringify({ conversationId, messageId }).slice(0, -1)},"content":`;
  return (text: string) => `${head}${JSON.stringify(text)},"done":false}\n\n`;
}
