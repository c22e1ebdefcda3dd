// The public API of one web chat, with streamed replies that resume after a lost connection.
// Its requests and answers are typed by api-schema.d.ts, generated from the OpenAPI document
// (`npm run console:types`), the events of its streams (text/event-stream) too.
import type { components, paths } from "./api-schema";
import { fetchOrNetworkError, NetworkError, readEvents, StreamEnded } from "./sse";

type Schemas = components["schemas"];
/** A widget endpoint, by its path below the web chat's public API (`config/`, `session/`, ...). */
type Public<P extends string> = `/api/v1/web-chats/{id}/public/${P}` & keyof paths;
type Operation<P extends string, M extends "get" | "post"> = paths[Public<P>][M & keyof paths[Public<P>]];
/** An endpoint's JSON answer (200). */
type Answer<P extends string, M extends "get" | "post"> =
  Operation<P, M> extends { responses: { 200: { content: { "application/json": infer T } } } } ? T : never;
/** An endpoint's JSON body. */
type Body<P extends string> =
  Operation<P, "post"> extends { requestBody?: { content: { "application/json": infer T } } } ? T : never;

export type Config = Schemas["WidgetConfig"];
export type Message = Schemas["WidgetMessage"];
/** A file uploaded for the next message: `file` is its key. */
export type Attachment = Schemas["WidgetAttachmentInput"];
/** What the widget tells of the visitor's environment with a message. */
export type Metadata = NonNullable<Schemas["WidgetSend"]["metadata"]>;

/** Who the host page says the visitor is (settings.contact, setContact): sent to `session/` as its `contact`. */
export interface Contact {
  sourceId?: string;
  name?: string;
  email?: string;
  token?: string;
  expiresAt?: number;
}

/** An event of a reply's stream (`messages/`, `stream/`). */
export type ReplyEvent = Schemas["WidgetReplyChunk"] & {
  /** The visitor's message was stored but the assistant could not answer it (`event: error` naming `incomingId`). */
  failed?: Pick<Schemas["CompletionStreamError"], "code" | "detail">;
};

/** A change of who serves the conversation (`event: status` of the live stream). */
export type StatusEvent = Schemas["WidgetStatusEvent"];

/** A human agent typing (`event: typing` of the live stream). */
export type TypingEvent = Schemas["WidgetTypingEvent"];

/** What a visitor sends: kept by the widget so that a retry sends exactly the same (with the same key). */
export interface Outgoing {
  content: string;
  metadata: Metadata;
  attachments: Attachment[];
  /** The `Idempotency-Key`: a retry with it stores the message once and gets the first send's reply. */
  key: string;
}

/** A refusal of the API: its status, `code` and `detail` (the message), and a 400's field errors (`errors`). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: Record<string, string[]> = {},
  ) {
    super(message);
  }
}

export class Api {
  token: string | null = null;
  constructor(
    readonly base: string,
    readonly webChatId: string,
  ) {}

  url(path: string) {
    return `${this.base}/api/v1/web-chats/${this.webChatId}/public/${path}`;
  }

  async call<T>(
    path: string,
    init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<T> {
    const headers: Record<string, string> = { ...init.headers };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    if (init.body !== undefined) headers["Content-Type"] = "application/json";
    const res = await fetchOrNetworkError(this.url(path), {
      method: init.method ?? "GET",
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    if (!res.ok) throw await failure(res);
    try {
      return (await res.json()) as T;
    } catch (err) {
      if (err instanceof SyntaxError) throw new ApiError(res.status, "bad_response", "The answer was not JSON.");
      throw new NetworkError(err); // the body was cut
    }
  }

  config() {
    return this.call<Answer<"config/", "get">>("config/");
  }

  session(token: string | null, contact?: Contact) {
    const body: Body<"session/"> = {};
    if (token) body.token = token;
    if (contact) {
      body.contact = {
        ...(contact.sourceId ? { sourceId: contact.sourceId, identityToken: contact.token } : {}),
        ...(contact.expiresAt ? { identityExpiresAt: contact.expiresAt } : {}),
        ...(contact.name ? { name: contact.name } : {}),
        ...(contact.email ? { email: contact.email } : {}),
      };
    }
    return this.call<Answer<"session/", "post">>("session/", { method: "POST", body });
  }

  /** The conversation's latest 100 messages, oldest first, or the 100 before the message numbered `before`. */
  history(conversationId: string, before?: number) {
    return this.call<Answer<"conversations/{conversationId}/messages/", "get">>(
      `conversations/${conversationId}/messages/?pageSize=100${before ? `&before=${before}` : ""}`,
    );
  }

  feedback(messageId: string, feedback: Body<"messages/{messageId}/feedback/">["feedback"]) {
    return this.call<Answer<"messages/{messageId}/feedback/", "post">>(`messages/${messageId}/feedback/`, {
      method: "POST",
      body: { feedback },
    });
  }

  /** Tells the operators the visitor is typing (or stopped); answered 204. */
  async typing(conversationId: string, typing: boolean): Promise<void> {
    const body: Body<"conversations/{conversationId}/typing/"> = { typing };
    const res = await fetchOrNetworkError(this.url(`conversations/${conversationId}/typing/`), {
      method: "POST",
      headers: { Authorization: `Bearer ${this.token}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw await failure(res);
  }

  /** The visitor's satisfaction rating of a resolved conversation. */
  csat(conversationId: string, rating: number, comment: string) {
    const body: Body<"conversations/{conversationId}/csat/"> = { rating, ...(comment ? { comment } : {}) };
    return this.call<Answer<"conversations/{conversationId}/csat/", "post">>(`conversations/${conversationId}/csat/`, {
      method: "POST",
      body,
    });
  }

  share(conversationId: string) {
    return this.call<Answer<"conversations/{conversationId}/share/", "post">>(
      `conversations/${conversationId}/share/`,
      {
        method: "POST",
        body: {},
      },
    );
  }

  shared(share: string) {
    return this.call<Answer<"shared/{share}/", "get">>(`shared/${encodeURIComponent(share)}/`);
  }

  /**
   * Uploads a file the way `upload-presigned-url/` describes (CONTRACT section 10): presigned by the
   * web chat, then a multipart POST with every field and the file last (204), or a PUT of the bytes.
   * Returns the key to send with the message.
   */
  async upload(file: File): Promise<string> {
    const body: Body<"uploads/"> = { filename: file.name, fileSize: file.size };
    const p = await this.call<Answer<"uploads/", "post">>("uploads/", { method: "POST", body });
    let res: Response;
    if (p.method === "PUT") res = await fetchOrNetworkError(p.url, { method: "PUT", headers: p.headers, body: file });
    else {
      const form = new FormData();
      for (const [k, v] of Object.entries(p.fields)) form.append(k, v);
      form.append("file", file);
      res = await fetchOrNetworkError(p.url, { method: "POST", body: form });
    }
    if (p.method === "POST" ? res.status !== 204 : !res.ok) throw await failure(res);
    return p.fields.key;
  }

  /**
   * Sends a message and reads the reply's events. A connection lost mid-reply is resumed from the
   * last event seen (`Last-Event-ID`), so the text arrives exactly once. A send lost before its first
   * event is sent again with the same `Idempotency-Key`: the server stores the message once and
   * answers a repeat with the first one's reply (409 while that is still under way: wait, ask again).
   * Without an answer within `timeoutMs` (the reply's stream not opened), the send is given up with
   * ApiError `timeout`: the caller shows it as not sent, and a retry with the same `message.key` is safe.
   */
  async send(
    conversationId: string | null,
    message: Outgoing,
    onEvent: (e: ReplyEvent) => void,
    timeoutMs: number,
  ): Promise<void> {
    let lastId: string | null = null;
    let conversation = conversationId;
    const read = async (res: Response) => {
      if (!res.ok) throw await failure(res);
      await readEvents(res.body!, (id, event, data) => {
        if (event === "error" && typeof data.incomingId === "string") {
          // The message is stored, only the reply failed: the send is done (a resend would be the same turn).
          conversation = typeof data.conversationId === "string" ? data.conversationId : conversation;
          const failed = { code: String(data.code ?? "error"), detail: String(data.detail ?? "The reply failed.") };
          return onEvent({ conversationId: conversation!, messageId: null, content: "", done: true, failed });
        }
        if (event === "error")
          throw new ApiError(502, String(data.code ?? "error"), String(data.detail ?? "The reply failed."));
        if (event !== "message") return;
        if (id) lastId = id;
        conversation = (data as ReplyEvent).conversationId ?? conversation;
        onEvent(data as ReplyEvent);
      });
    };
    const headers: Record<string, string> = { "Content-Type": "application/json", "Idempotency-Key": message.key };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    const { content, metadata, attachments } = message;
    const sent: Body<"messages/"> = { conversation, content, metadata, ...(attachments.length ? { attachments } : {}) };
    const body = JSON.stringify(sent);
    const pause = (attempt: number) => new Promise((r) => setTimeout(r, Math.min(4000, 250 * 2 ** attempt)));
    const deadline = Date.now() + timeoutMs;
    for (let attempt = 0; ; attempt++) {
      // Until the reply's stream opens, the send is bounded; a cut after that is resumed below.
      const abort = new AbortController();
      const timer = setTimeout(() => abort.abort(), Math.max(0, deadline - Date.now()));
      try {
        const res = await fetchOrNetworkError(this.url("messages/"), {
          method: "POST",
          headers,
          body,
          signal: abort.signal,
        });
        clearTimeout(timer);
        await read(res);
        return;
      } catch (err) {
        clearTimeout(timer);
        if (!(err instanceof ApiError || err instanceof NetworkError || err instanceof StreamEnded)) throw err;
        if (lastId && conversation && !(err instanceof ApiError)) break; // resumed below
        if (Date.now() >= deadline && !lastId) throw new ApiError(0, "timeout", "No answer in time.");
        const resend = !lastId && attempt < 5 && (!(err instanceof ApiError) || err.code === "idempotency_in_progress");
        if (!resend) throw err;
      }
      await pause(attempt);
    }
    for (let attempt = 0; attempt < 6; attempt++) {
      await pause(attempt);
      try {
        const res = await fetchOrNetworkError(this.url(`conversations/${conversation}/stream/`), {
          headers: { Authorization: `Bearer ${this.token}`, "Last-Event-ID": lastId! },
        });
        await read(res);
        return;
      } catch (err) {
        if (!(err instanceof NetworkError || err instanceof StreamEnded)) throw err;
      }
    }
    throw new ApiError(0, "network", "The connection was lost.");
  }
}

/**
 * Reads a conversation's live stream from after `lastEventId` (the id of the last message event
 * read; null: from now on) until the stream ends, the network fails (NetworkError) or `signal`
 * aborts (NetworkError too): `on.open` once it is under way, `on.message` for each stored message
 * (a human agent's reply, a message written in another tab), `on.status` for each change of who
 * serves it, `on.replying` whether the assistant is composing a reply (at each opening, then each change). Throws
 * ApiError for a refused request.
 */
export async function liveEvents(
  api: Api,
  conversationId: string,
  lastEventId: string | null,
  on: {
    open: () => void;
    message: (m: Message) => void;
    status: (s: StatusEvent) => void;
    typing: (t: TypingEvent) => void;
    replying: (replying: boolean) => void;
  },
  signal: AbortSignal,
): Promise<void> {
  const headers: Record<string, string> = { Authorization: `Bearer ${api.token}` };
  if (lastEventId) headers["Last-Event-ID"] = lastEventId;
  const res = await fetchOrNetworkError(api.url(`conversations/${conversationId}/events/`), { headers, signal });
  if (!res.ok) throw await failure(res);
  on.open();
  await readEvents(
    res.body!,
    (_id, event, data) => {
      if (event === "message") on.message(data as Message);
      else if (event === "status") on.status(data as StatusEvent);
      else if (event === "typing") on.typing(data as TypingEvent);
      else if (event === "replying") on.replying(data.replying === true);
    },
    // Pinged every 10 s: three missed pings and the connection is taken for dead (and opened again).
    { untilDone: false, idleMs: LIVE_IDLE_MS },
  );
}

/** How long the live stream may be silent before the widget takes its connection for dead. */
export const LIVE_IDLE_MS = 30_000;

/** What the network or the API may throw: shown to the visitor or dropped; anything else is a bug and propagates. */
export const expected = (err: unknown): err is ApiError | NetworkError =>
  err instanceof ApiError || err instanceof NetworkError;

/**
 * For the `.catch` of work whose failure needs nothing more (told already, or tried again later): an `expected` error
 * ends there, any other (a programming error) is thrown on.
 */
export const unlessExpected = (err: unknown) => {
  if (!expected(err)) throw err;
};

async function failure(res: Response): Promise<ApiError> {
  let text: string;
  try {
    text = await res.text();
  } catch (err) {
    throw new NetworkError(err);
  }
  let body: { detail?: string; code?: string; errors?: Record<string, string[]> } = {};
  try {
    body = JSON.parse(text);
  } catch (err) {
    if (!(err instanceof SyntaxError)) throw err;
    // Storage answering a presigned upload itself (S3, R2) writes XML: <Error><Code>…</Code><Message>…</Message>.
    // Anything else (a proxy's error page): the status says enough.
    const xml = (tag: string) => new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(text)?.[1];
    body = { code: xml("Code"), detail: xml("Message") };
  }
  return new ApiError(res.status, body.code ?? "error", body.detail ?? `HTTP ${res.status}`, body.errors ?? {});
}

/** A random key (`crypto.randomUUID` exists only on secure pages, and the widget may be on any page). */
export const newKey = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
