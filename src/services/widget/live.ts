import { eq } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { conversations, users, type WebChatSettings } from "../../db/schema";
import { conversationDb } from "../shards/parts";
import type { MessageRecord } from "../records/messages";
import type { WidgetReplying, WidgetStatus, WidgetTyping } from "../records/widget-events";
import type { ConversationRow, ConversationStateEvent, MessageRow } from "../conversations";
import { storedMessages } from "../messages";
import { endedWhen, eventText } from "../sse";
import { conversationObject } from "../conversations";
import { recheckMs } from "../stream-access";
import { visitorsOwnConversation, visitorStreamLost } from "./visitors";
import { publicMessage } from "../records/widget";

const encoder = new TextEncoder();

/** How long a visitor's live stream stays open before it ends (`WIDGET_STREAM_MAX_MS`); the widget reopens it with
 * `Last-Event-ID`. */
export const STREAM_MAX_MS = 600_000;
export const streamMaxMs = (env: Bindings) => Number(env.WIDGET_STREAM_MAX_MS) || STREAM_MAX_MS;

/** At most this many messages are replayed after `Last-Event-ID`; a visitor away longer reads `messages/` again. */
const REPLAY_LIMIT = 100;

/**
 * The messages of a conversation stored after `lastEventId` (a message id of this conversation, as
 * the live stream numbers its events), oldest first, read by its object. An id that is not one of this
 * conversation's messages replays nothing: it could name another visitor's message.
 */
async function messagesAfter(
  env: Bindings,
  conversation: { id: string; organizationId: string },
  lastEventId: string | undefined,
): Promise<MessageRow[]> {
  if (!lastEventId) return [];
  return storedMessages(env, conversation.organizationId, conversation.id).visible({
    afterId: lastEventId.toLowerCase(),
    limit: REPLAY_LIMIT,
  });
}

/**
 * The conversation's state as the live stream opens with it: the widget knows at once whether a person serves (a
 * send then shows no assistant typing), also after a reload. The agent is its assignee while a human serves. Read
 * here, after the route subscribed, not taken from the row it checked the visitor with: a takeover between that read
 * and the subscription was broadcast to no one, and the stale row would hide it until the stream opened again.
 */
async function stateOf(env: Bindings, db: Db, conversation: ConversationRow): Promise<WidgetStatus> {
  const [current] = await (await conversationDb(env, conversation.organizationId, conversation.id))
    .select({
      status: conversations.status,
      progressStatus: conversations.progressStatus,
      assigneeId: conversations.assigneeId,
    })
    .from(conversations)
    .where(eq(conversations.id, conversation.id));
  const { status, progressStatus, assigneeId } = current ?? conversation;
  if (progressStatus !== "human_serving" || !assigneeId) return { status, progressStatus, agent: null };
  const [agent] = await db
    .select({ name: users.name, avatar: users.avatar })
    .from(users)
    .where(eq(users.id, assigneeId));
  return { status, progressStatus, agent: agent ?? null };
}

/**
 * A visitor's live stream of their conversation (liveMessages), opened with what `opened` names (the web chat, the
 * conversation, the request's `Authorization`: 404 / 401 / 403 as visitorsOwnConversation says) and ended once those
 * no longer hold (visitorStreamLost, asked again every recheckMs). Subscribed first, then the messages missed since
 * `lastEventId` read: a message stored in between is in both, and sent once.
 */
export async function visitorLiveStream(
  opened: Readonly<Parameters<typeof visitorsOwnConversation>>,
  lastEventId: string | undefined,
): Promise<ReadableStream<Uint8Array>> {
  const [env, db] = opened;
  const { chat, conversation } = await visitorsOwnConversation(...opened);
  const stream = await conversationObject(env, conversation.id).subscribe();
  const opening = () => liveOpening(env, db, conversation, lastEventId);
  const live = liveMessages(stream, chat.webChat.settings, opening, streamMaxMs(env));
  return endedWhen(live, () => visitorStreamLost(...opened), recheckMs(env));
}

/** What a live stream opens with (see liveMessages): the conversation's state, then the messages missed. */
export async function liveOpening(
  env: Bindings,
  db: Db,
  conversation: ConversationRow,
  lastEventId: string | undefined,
): Promise<{ state: WidgetStatus; missed: MessageRow[] }> {
  const [state, missed] = await Promise.all([
    stateOf(env, db, conversation),
    messagesAfter(env, conversation, lastEventId),
  ]);
  return { state, missed };
}

/**
 * A conversation object's live events (`subscribe`) as the visitor may see them: the conversation's state first
 * (`event: status`, `state`, read after subscribing: a change in between is sent twice, never missed), each stored
 * message in its public form (`event: message`, `id:` its message id), each change of who serves
 * the conversation (`event: status`), a human agent typing (`event: typing` `{typing, name}`), whether the assistant
 * is composing a reply (`event: replying` `{replying}`: the object's answer when subscribed, after the state, then each
 * change), pings as they are; reply deltas and tool events are left out
 * (the visitor's own reply stream carries those). This is how a human agent's reply reaches the
 * widget at once.
 *
 * `missed` (read after subscribing, so nothing falls between the two) are the messages stored since
 * the client's `Last-Event-ID`: they go first, and a live message already among them is not sent
 * twice. The stream ends after `maxMs`: the client reopens it, its token is checked again, and
 * `Last-Event-ID` fills the gap.
 */
export function liveMessages(
  source: ReadableStream<Uint8Array>,
  settings: WebChatSettings,
  opening: () => ReturnType<typeof liveOpening>,
  maxMs: number,
): ReadableStream<Uint8Array> {
  const reader = source.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let replayedUpTo = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let ended = false;
  // However it ends (the time limit, the source's end, the visitor gone), the timer goes and the
  // object's subscription is cancelled, which forgets it: nothing of this request outlives it.
  const end = (controller?: ReadableStreamDefaultController<Uint8Array>) => {
    if (ended) return;
    ended = true;
    clearTimeout(timer);
    controller?.close();
    reader.cancel().catch(() => undefined);
  };
  const messageEvent = (record: Parameters<typeof publicMessage>[0]) => {
    const message = publicMessage(record, settings);
    return encoder.encode(`id: ${message.id}\nevent: message\ndata: ${JSON.stringify(message)}\n\n`);
  };
  /** The visitor's form of one event of the object's stream, or null for one they do not see. */
  const rewrite = (block: string): Uint8Array | null => {
    if (block.startsWith(":")) return encoder.encode(`${block}\n\n`);
    const raw = block.match(/^data: (.*)$/m)?.[1];
    const event = block.match(/^event: (\S+)/m)?.[1];
    if (!raw) return null;
    if (event === "message") {
      const record = JSON.parse(raw) as MessageRecord;
      return record.sequence > replayedUpTo ? messageEvent(record) : null;
    }
    if (event === "state") {
      const { status, progressStatus, agent } = JSON.parse(raw) as ConversationStateEvent;
      return encoder.encode(eventText({ status, progressStatus, agent } satisfies WidgetStatus, "status"));
    }
    if (event === "typing") {
      const { typing, name } = JSON.parse(raw) as WidgetTyping;
      return encoder.encode(eventText({ typing, name } satisfies WidgetTyping, "typing"));
    }
    if (event === "replying") {
      const { replying } = JSON.parse(raw) as WidgetReplying;
      return encoder.encode(eventText({ replying } satisfies WidgetReplying, "replying"));
    }
    return null;
  };
  /** Settles once the opening is sent: live events wait in the source until then. */
  let opened: Promise<void> = Promise.resolve();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(": connected\n\n")); // the response starts at once
      timer = setTimeout(() => end(controller), maxMs);
      // Not left to start's promise: the runtime may pull before it settles, and the object's first event (whether
      // a reply is under way) would overtake the state.
      opened = opening().then(({ state, missed }) => {
        if (ended) return;
        controller.enqueue(encoder.encode(eventText(state, "status")));
        for (const row of missed) {
          if (ended) return;
          controller.enqueue(messageEvent(row));
          replayedUpTo = row.sequence;
        }
      });
    },
    async pull(controller) {
      await opened;
      while (!ended) {
        const { value, done } = await reader.read();
        if (ended) return;
        if (done) return end(controller);
        buffer += value;
        let enqueued = false;
        let cut: number;
        while ((cut = buffer.indexOf("\n\n")) >= 0) {
          const out = rewrite(buffer.slice(0, cut));
          buffer = buffer.slice(cut + 2);
          if (out) controller.enqueue(out), (enqueued = true);
        }
        if (enqueued) return;
      }
    },
    cancel() {
      end();
    },
  });
}
