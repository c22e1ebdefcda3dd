import type { Schemas } from "./api";

/**
 * A streamed reply's events by name, each `data` as the OpenAPI document types it (`CompletionStreamEvent`): text
 * chunks without a name (`message`), the last one `done` with the stored reply, tool calls and results, and
 * `error`. `M` is the reply record the last chunk carries: the `Message` of a completion, the `WidgetMessage` of a
 * visitor's send.
 */
export type StreamEvent<M = Schemas["Message"]> =
  | { event: "message"; data: Chunk<M> }
  | { event: "tool_call"; data: Schemas["ToolCallEvent"] }
  | { event: "tool_result"; data: Schemas["ToolResultEvent"] }
  | { event: "error"; data: Schemas["CompletionStreamError"] };
export type Chunk<M = Schemas["Message"]> = Omit<Schemas["CompletionChunk"], "message"> & { message?: M | null };

/** The organization's live inbox stream (`conversation-events/`), each `data` as the OpenAPI document types it
 * (`ConversationEventStream`): `ready` once subscribed, the inbox's events, and `error` when it ends. */
export type InboxStreamEvent =
  | { event: "ready"; data: Schemas["StreamReadyEvent"] }
  | { event: "conversation.created"; data: Schemas["ConversationCreatedEvent"] }
  | { event: "conversation.updated"; data: Schemas["ConversationUpdatedEvent"] }
  | { event: "message.created"; data: Schemas["MessageCreatedEvent"] }
  | { event: "conversation.typing"; data: Schemas["ConversationTypingEvent"] }
  | { event: "error"; data: Schemas["StreamEndedEvent"] };

/** An event as sent: its name and its parsed `data`. */
type Parsed = { event: string; data: unknown };

/** A block of an event stream's text, parsed: `event:` (default `message`), `data:` as JSON, and `id:`; null for a
 * block without data (a `: ping` comment). */
function parseBlock(block: string): (Parsed & { id: string | null }) | null {
  const lines = block.split("\n");
  const field = (name: string) =>
    lines
      .find((l) => l.startsWith(`${name}:`))
      ?.slice(name.length + 1)
      .trim();
  const data = lines
    .filter((l) => l.startsWith("data:"))
    .map((l) => l.slice(5).trim())
    .join("\n");
  if (!data) return null;
  return { event: field("event") ?? "message", data: JSON.parse(data), id: field("id") ?? null };
}

/** Events as read without a type for them: a name and an object. */
type Untyped = { event: string; data: Record<string, unknown> };

/**
 * Reads a server-sent event stream to its end: each event's name and parsed data, in order. `E` types the events
 * by name: `StreamEvent` for a streamed reply, as the document promises them; the test asserts the rest.
 */
export async function readEvents<E extends Parsed = Untyped>(res: Response): Promise<E[]> {
  const text = await res.text();
  return text.split("\n\n").flatMap((block) => {
    const parsed = parseBlock(block);
    return parsed ? [{ event: parsed.event, data: parsed.data } as E] : [];
  });
}

/**
 * The chunk a streamed reply ended with: the last event, which must be a chunk (not an `error` or a tool event);
 * whether it is `done` is for the test to assert.
 */
export function lastChunk<M>(events: StreamEvent<M>[]): Chunk<M> {
  const last = events.at(-1);
  if (last?.event !== "message") throw new Error(`the stream did not end with a chunk: ${JSON.stringify(last)}`);
  return last.data;
}

/** The `data` of each chunk (nameless event) of a streamed reply, in order. */
export const chunksOf = <M>(events: StreamEvent<M>[]): Chunk<M>[] =>
  events.flatMap((e) => (e.event === "message" ? [e.data] : []));

/** The text a streamed reply's deltas (its chunks before the last) carried, joined. */
export const streamedText = <M>(events: StreamEvent<M>[]): string =>
  chunksOf(events)
    .filter((c) => !c.done)
    .map((c) => c.content)
    .join("");

/**
 * Reads a live server-sent event stream (one that does not end) event by event: `next(match)`
 * resolves with the first event from now on that `match` accepts, skipping others; `next(name, match)` the first
 * event of that name, typed as `E` types it (`InboxStreamEvent` for the inbox's stream, `StreamEvent` for a
 * conversation's). It throws "the stream ended" once the stream has ended.
 */
export function liveEvents<E extends Parsed = Untyped>(res: Response) {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  type LiveEvent = E & { id: string | null };
  type Named<N> = Extract<E, { event: N }> & { id: string | null };
  const queue: LiveEvent[] = [];
  function next<N extends E["event"]>(name: N, match?: (e: Named<N>) => boolean): Promise<Named<N>>;
  function next(match?: (e: LiveEvent) => boolean): Promise<LiveEvent>;
  async function next<N extends E["event"]>(
    nameOrMatch: N | ((e: LiveEvent) => boolean) = () => true,
    where: (e: Named<N>) => boolean = () => true,
  ) {
    const named = (e: LiveEvent): e is Named<N> => e.event === nameOrMatch;
    const match = typeof nameOrMatch === "function" ? nameOrMatch : (e: LiveEvent) => named(e) && where(e);
    for (;;) {
      const found = queue.findIndex(match);
      if (found >= 0) return queue.splice(0, found + 1).at(-1)!;
      queue.length = 0;
      const { value, done } = await reader.read();
      if (done) throw new Error("the stream ended");
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const parsed = parseBlock(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
        if (parsed) queue.push(parsed as LiveEvent);
      }
    }
  }
  return { next, close: () => reader.cancel() };
}

/** The last chunk of a reply that was stored, with the reply record in `message` (the test fails if it has none). */
export function storedReply<M>(events: StreamEvent<M>[]): Chunk<M> & { message: M } {
  const last = lastChunk(events);
  if (!last.message) throw new Error(`the stream ended without a stored reply: ${JSON.stringify(last)}`);
  return { ...last, message: last.message };
}
