// The conversation's live stream, kept open while the conversation is the widget's current one:
// a human agent's reply, a message written in another tab, a change of who serves it.
import { ApiError, liveEvents, type Api, type Message, type StatusEvent, type TypingEvent } from "./api";
import { backOff, pause } from "./retry";
import { NetworkError } from "./sse";

export interface LiveHandlers {
  message: (m: Message) => void;
  /**
   * Who serves the conversation. `news`: a change to tell the visitor; false for the state a stream opens with
   * when the widget knew it already or knew none yet (`loaded`: a page just loaded, a conversation shown).
   */
  status: (s: StatusEvent, news: boolean, loaded: boolean) => void;
  typing: (t: TypingEvent) => void;
  /** Whether the assistant is composing a reply: told at each opening (a page reloaded mid-reply), then each change. */
  replying: (replying: boolean) => void;
  /** The visitor's token was refused: renew it; false when there is no session to be had (the stream stops). */
  expired: () => Promise<boolean>;
}

const stateOf = (s: StatusEvent) => JSON.stringify([s.status, s.progressStatus, s.agent?.name ?? null]);

/**
 * Reads the stream and opens it again whenever it ends (the server ends it every
 * `WIDGET_STREAM_MAX_MS`, a proxy or the network may cut it), with `Last-Event-ID`: the messages
 * stored meanwhile come first, each once. `stop` aborts the request, which releases its connection
 * (a browser has six per host: an abandoned stream would hold one for good).
 */
export class LiveStream {
  readonly #abort = new AbortController();
  /** The id of the newest message known: where the next opening resumes. */
  lastEventId: string | null;
  #lastSequence = 0;
  /** The state the last `status` event told (see #status). */
  #state: string | null = null;

  constructor(
    readonly api: Api,
    readonly conversationId: string,
    newest: Pick<Message, "id" | "sequence"> | null,
    readonly on: LiveHandlers,
    /** The state the widget knows the conversation in before the stream opens (null: none, a page just loaded). */
    known: StatusEvent | null = null,
  ) {
    this.lastEventId = newest?.id ?? null;
    this.#lastSequence = newest?.sequence ?? 0;
    if (known) this.#state = stateOf(known);
    void this.#run();
  }

  /** A message known by other means (the visitor's own reply stream): the stream resumes after it. */
  saw(m: Pick<Message, "id" | "sequence">) {
    if (m.sequence > this.#lastSequence) {
      this.#lastSequence = m.sequence;
      this.lastEventId = m.id;
    }
  }

  stop() {
    this.#abort.abort();
  }

  /**
   * Every opening starts with the conversation's state: news only when it differs from what the widget knew, as a
   * change made while the stream was down. A state told twice (a change between the opening's subscription and its
   * read of the state) is news once.
   */
  #status(s: StatusEvent, opening: boolean) {
    const state = stateOf(s);
    const loaded = opening && this.#state === null;
    const news = state !== this.#state && !loaded;
    this.#state = state;
    this.on.status(s, news, loaded);
  }

  async #run() {
    const signal = this.#abort.signal;
    let failures = 0;
    while (!signal.aborted) {
      let opened = false;
      let opening = true;
      const started = Date.now();
      try {
        await liveEvents(
          this.api,
          this.conversationId,
          this.lastEventId,
          {
            open: () => (opened = true),
            message: (m) => {
              if (signal.aborted) return;
              this.saw(m);
              this.on.message(m);
            },
            status: (s) => {
              if (signal.aborted) return;
              this.#status(s, opening);
              opening = false;
            },
            typing: (t) => !signal.aborted && this.on.typing(t),
            replying: (r) => !signal.aborted && this.on.replying(r),
          },
          signal,
        );
      } catch (err) {
        if (signal.aborted) return;
        if (err instanceof ApiError && err.status === 401) {
          if (!(await this.on.expired())) return this.stop();
        } else if (err instanceof ApiError && (err.status === 403 || err.status === 404)) {
          return this.stop(); // the chat closed, or the conversation is not the visitor's any more
        } else if (!(err instanceof ApiError || err instanceof NetworkError)) {
          throw err; // a bug, not the network: let it be seen
        }
      }
      failures = opened && Date.now() - started >= 1000 ? 0 : failures + 1;
      await pause(backOff(failures), signal);
    }
  }
}
