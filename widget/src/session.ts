// The visitor's session: the token and current conversation kept in localStorage, the session
// started (or resumed) when needed, and the pre-chat form that asks a new visitor who they are.
import { ApiError, expected, newKey, type Outgoing } from "./api";
import { h } from "./dom";
import { t } from "./i18n";
import type { Widget } from "./main";
import { askRating } from "./rating";
import { laterMayMend, type Reason } from "./refusals";
import type { NetworkError } from "./sse";
import { restoreOutbox, sendElsewhere } from "./stream";

interface Stored {
  token?: string;
  conversationId?: string;
  mode?: string;
  /** Where an older widget kept the outbox, shared by every tab; taken over once by the tab that reads it. */
  outbox?: Outbox | null;
}

/** Messages not yet taken, in the order written, for the conversation they go to (null: the one their first starts). */
export interface Outbox {
  conversationId: string | null;
  /**
   * `after`: the in-flight one's `sendingAfter` (none in an outbox kept by an older widget); `refused`: why one refused
   * for good was not sent (it waits for the visitor's Retry or Remove, and holds nothing back).
   */
  messages: (Outgoing & { inFlight?: boolean; after?: number; refused?: Reason })[];
}

/** A file uploaded for the next message: its name and the key the upload stored it under. */
export interface DraftFile {
  name: string;
  key: string;
}

/**
 * A tab's outbox as kept in local storage: when it was written, whether its tab has closed, and whether its tab held
 * its lock as it wrote it (see holdTab).
 */
interface KeptOutbox {
  outbox: Outbox;
  at: number;
  closed?: boolean;
  locked?: boolean;
}

/** How long a tab's lock is seen let go before its outbox is taken: a reload's page takes it again within that. */
const GONE_AFTER_MS = 3000;

/**
 * How long a page waits for its tab's lock as it starts (claimTab): the page it follows in the tab lets it go as it
 * leaves, a moment later at most; held longer, another tab holds it.
 */
const CLAIM_WAIT_MS = 1500;

/** The browser's Web Locks, where it has them (not on a page served over plain HTTP). */
const locks = (): LockManager | undefined => (globalThis.navigator as { locks?: LockManager } | undefined)?.locks;

/**
 * How long a tab's outbox may go unwritten before a page of another tab takes it over: its tab ended without a word
 * (a phone's browser killed it in the background) and held no lock to tell (a browser without Web Locks, an older
 * widget; see holdTab). A tab that closes says so (`pagehide`) and needs no wait.
 */
export const ABANDONED_MS = 60 * 60_000;

/**
 * Whether an outbox written for conversation `written` is sent in the conversation `shown`: its own, or any when it was
 * written before a conversation started (the widget shows the visitor's newest).
 */
const sentIn = (written: string | null, shown: string | null) => written === shown || written === null;

/**
 * `use` of the browser's storage, or `otherwise` when the storage refuses (a sandboxed frame, private mode, or full:
 * what is kept then lasts as long as the page) or holds a value that is not JSON (someone else wrote it).
 */
function inStorage<T>(use: () => T, otherwise: T): T {
  try {
    return use();
  } catch (err) {
    if (!(err instanceof DOMException || err instanceof SyntaxError)) throw err;
    return otherwise;
  }
}

/** What the widget keeps between visits, per web chat: the token, the current conversation, the theme chosen. */
export class VisitorStorage {
  #tab: string | null = null;
  /** Lets this tab's lock go (holdTab); null while it holds none. */
  #release: (() => void) | null = null;
  /** Outboxes (by key) whose tab held no lock at the last look, and since when (seeTabs). */
  #gone = new Map<string, number>();

  constructor(readonly key: string) {}

  get stored(): Stored {
    return inStorage(() => JSON.parse(localStorage.getItem(this.key) ?? "{}"), {});
  }

  store(values: Record<string, unknown>) {
    inStorage(() => localStorage.setItem(this.key, JSON.stringify({ ...this.stored, ...values })), undefined);
  }

  /** This tab's name, kept in its session storage: a reload is the same tab, another tab is another (see claimTab). */
  get tab(): string {
    if (this.#tab) return this.#tab;
    const name = newKey();
    this.#tab = inStorage(() => {
      const kept = sessionStorage.getItem(`${this.key}:tab`);
      if (!kept) sessionStorage.setItem(`${this.key}:tab`, name);
      return kept || name;
    }, name);
    return this.#tab;
  }

  /** The newest reply the visitor has seen, and in which conversation (followUnread in unread.ts). */
  get seen(): { conversationId: string; sequence: number } | null {
    const kept = inStorage(() => JSON.parse(localStorage.getItem(`${this.key}:seen`) ?? "null"), null);
    return typeof kept?.conversationId === "string" && Number.isFinite(kept.sequence) ? kept : null;
  }

  set seen(seen: { conversationId: string; sequence: number }) {
    inStorage(() => localStorage.setItem(`${this.key}:seen`, JSON.stringify(seen)), undefined);
  }

  /** Whether `key` (of a `storage` event) is where what the visitor has seen is kept. */
  isSeen(key: string | null): boolean {
    return key === `${this.key}:seen`;
  }

  /** What the visitor has written and not sent, kept for the tab: its next page of the site, a reload. */
  get draft(): string {
    return inStorage(() => sessionStorage.getItem(`${this.key}:draft`) ?? "", "");
  }

  set draft(text: string) {
    const key = `${this.key}:draft`;
    inStorage(() => (text.trim() ? sessionStorage.setItem(key, text) : sessionStorage.removeItem(key)), undefined);
  }

  /** The files uploaded for the message not sent yet (name and stored key), kept for the tab as its words are. */
  get draftFiles(): DraftFile[] {
    const kept = inStorage(() => JSON.parse(sessionStorage.getItem(`${this.key}:files`) ?? "[]"), []);
    return Array.isArray(kept) ? kept.filter((f) => typeof f?.name === "string" && typeof f?.key === "string") : [];
  }

  set draftFiles(files: DraftFile[]) {
    const key = `${this.key}:files`;
    inStorage(
      () => (files.length ? sessionStorage.setItem(key, JSON.stringify(files)) : sessionStorage.removeItem(key)),
      undefined,
    );
  }

  get #outboxKey() {
    return `${this.key}:outbox:${this.tab}`;
  }

  /** The name of the Web Lock the tab whose outbox is kept under `outboxKey` holds while its page lives. */
  #lockOf(outboxKey: string) {
    return `${this.key}:tab:${outboxKey.slice(`${this.key}:outbox:`.length)}`;
  }

  /**
   * Takes this tab's name for the page as it starts, and holds the name's Web Lock (holdTab). A tab the browser
   * duplicated starts with a copy of its original's session storage, the name in it: it finds the lock held by its
   * original's page past `CLAIM_WAIT_MS` and takes a name of its own. Sharing the name, the two tabs shared one
   * outbox, and what the copy left unsent was its original's to overwrite, or was never taken. The page this one
   * follows in the tab (a reload, a link) lets the lock go as it leaves, which may come a moment after this one starts.
   * Where the browser has no Web Locks, a duplicate keeps the name.
   */
  async claimTab() {
    const manager = locks();
    if (!manager) return;
    const waited = new AbortController();
    const timer = setTimeout(() => waited.abort(), CLAIM_WAIT_MS);
    const held = await this.#hold(manager, waited.signal);
    clearTimeout(timer);
    if (held !== "waited") return;
    this.#tab = newKey();
    inStorage(() => sessionStorage.setItem(`${this.key}:tab`, this.tab), undefined);
    await this.#hold(manager);
  }

  /**
   * Holds this tab's Web Lock while its page lives. The browser lets it go when the page goes, however it goes
   * (closed, crashed, killed in the background), so other tabs know its outbox is left even when its `pagehide` never
   * ran or its write was lost (seeTabs); before, such an outbox waited an hour (`ABANDONED_MS`). Let go at `pagehide`
   * (`letTabGo`: a page holding a lock is not kept in the back/forward cache) and held again at `pageshow`.
   */
  holdTab() {
    const manager = locks();
    if (manager && !this.#release) void this.#hold(manager);
  }

  /**
   * Asks for this tab's lock: `held` once granted, `waited` when `signal` ended the wait first, `refused` where the
   * browser will not give it (a sandboxed frame: the tab is known gone by `pagehide` alone, as without Web Locks).
   */
  #hold(manager: LockManager, signal?: AbortSignal): Promise<"held" | "waited" | "refused"> {
    const kept = new Promise<void>((resolve) => (this.#release = resolve));
    return new Promise((answer) =>
      manager
        .request(this.#lockOf(this.#outboxKey), { signal }, () => {
          answer("held");
          return kept;
        })
        .catch((err: unknown) => {
          if (!(err instanceof DOMException)) throw err;
          this.#release = null;
          answer(signal?.aborted ? "waited" : "refused");
        }),
    );
  }

  letTabGo() {
    this.#release?.();
    this.#release = null;
  }

  /**
   * Looks at which tabs hold their lock (holdTab): an outbox written while its tab held one, whose tab holds none now,
   * is left once that has lasted `GONE_AFTER_MS` (see #orphans). Outboxes written by tabs without a lock (an older
   * widget, a browser without Web Locks) are judged by `pagehide` and `ABANDONED_MS` alone.
   */
  async seeTabs(now = Date.now()) {
    const manager = locks();
    if (!manager) return;
    let held: LockInfo[] = [];
    try {
      held = (await manager.query()).held ?? [];
    } catch (err) {
      if (!(err instanceof DOMException)) throw err;
      return;
    }
    const alive = new Set(held.map((l) => l.name));
    const keys = this.#outboxKeys();
    for (const key of [...this.#gone.keys()]) if (!keys.includes(key)) this.#gone.delete(key);
    for (const key of keys) {
      const kept = this.#read(key);
      // This tab's own, one its tab said closed, or one written without the lock: not judged by the lock.
      const judged = key !== this.#outboxKey && !!kept?.locked && !kept.closed;
      if (!judged || alive.has(this.#lockOf(key))) this.#gone.delete(key);
      else if (!this.#gone.has(key)) this.#gone.set(key, now);
    }
  }

  /**
   * The messages the server has not taken yet for `conversationId` (`saveOutbox` in stream.ts): this tab's, then those
   * of tabs that closed with messages unsent, each list in its own order. Kept in local storage under the tab's name:
   * a reload of the tab sends its own, another tab neither overwrites nor sends them while it lives, and a page opened
   * after it closed sends them (docs/decisions.md, "The outbox"). Another tab's are taken out of storage as they are
   * read; those for another conversation stay for a page that shows it (`sentIn`).
   */
  outboxes(conversationId: string | null, now = Date.now()): Outbox[] {
    const mine = (o: Outbox | null | undefined): o is Outbox => !!o && sentIn(o.conversationId, conversationId);
    const own = this.#read(this.#outboxKey)?.outbox;
    const orphans = this.#orphans(conversationId, now).map(([key, kept]) => {
      this.#remove(key);
      return kept;
    });
    // Where older widgets kept them: the tab's session storage, before that the site's storage (taken over once).
    const session: Outbox | null = inStorage(() => JSON.parse(sessionStorage.getItem(this.key) ?? "null"), null);
    const site = this.stored.outbox;
    if (mine(session)) inStorage(() => sessionStorage.removeItem(this.key), undefined);
    if (mine(site)) this.store({ outbox: null });
    return [own, session, site, ...orphans.sort((a, b) => a.at - b.at).map((k) => k.outbox)].filter(mine);
  }

  /**
   * This tab's outbox as its last page left it (a reload): set aside as a closed tab's, under a name of its own, so
   * that this page takes it once it shows the conversation (restoreOutbox; adoptOrphans once its own queue is done) or
   * sends it where it was written (sendElsewhere). Kept under the tab's name, it was overwritten by this page's first
   * save: a page that could not connect lost the messages as it left (a reload, again), or as the visitor wrote.
   */
  setAsideOutbox() {
    const kept = this.#read(this.#outboxKey);
    if (kept) this.#setAside(kept);
  }

  /**
   * This tab's outbox, if written for another conversation than `shown`, the one its page now shows (another tab
   * started a new one, which a reload shows; the conversation is not the visitor's any more): handed over as a closed
   * tab's, so that it is sent there in the background and those refused show here (sendElsewhere in stream.ts). Kept
   * as this tab's, the page's next save overwrote it.
   */
  handOver(shown: string | null) {
    const kept = this.#read(this.#outboxKey);
    if (kept && !sentIn(kept.outbox.conversationId, shown)) this.#setAside(kept);
  }

  /** This tab's outbox, kept from now on as a closed tab's (see #orphans). */
  #setAside(kept: KeptOutbox) {
    const json = JSON.stringify({ ...kept, closed: true });
    inStorage(() => localStorage.setItem(`${this.key}:outbox:${newKey()}`, json), undefined);
    this.#remove(this.#outboxKey);
  }

  /**
   * Whether tabs that closed left messages unsent for `conversationId` (see outboxes); with `closedFor`, only those
   * closed at least that long ago (a reload takes its own back at once).
   */
  orphaned(conversationId: string | null, now = Date.now(), closedFor = 0): boolean {
    return this.#orphans(conversationId, now, closedFor).length > 0;
  }

  /**
   * The outboxes tabs left (see #orphans) for conversations other than `conversationId`, the oldest first, each with
   * where it is kept: messages written in a conversation the visitor has since left for a new one (sendElsewhere in
   * stream.ts). Those written before any conversation started are any page's own (see outboxes).
   */
  orphansElsewhere(
    conversationId: string | null,
    now = Date.now(),
    closedFor = 0,
  ): { key: string; outbox: Outbox; to: string }[] {
    return this.#orphans((id) => id !== null && id !== conversationId, now, closedFor)
      .sort((a, b) => a[1].at - b[1].at)
      .map(([key, kept]) => ({ key, outbox: kept.outbox, to: kept.outbox.conversationId as string }));
  }

  /** What is left to send of an outbox another tab left (`key`, see orphansElsewhere), unless a page took it since. */
  leaveOrphan(key: string, outbox: Outbox) {
    const kept = this.#read(key);
    if (!kept) return;
    if (!outbox.messages.length) return this.#remove(key);
    inStorage(() => localStorage.setItem(key, JSON.stringify({ ...kept, outbox })), undefined);
  }

  /** The outboxes of other tabs sent in the conversation `of` (`sentIn`, or those `of` takes) whose tab closed
   * (`closedFor` ago at least), or went silent `ABANDONED_MS` ago. */
  #orphans(
    of: string | null | ((conversationId: string | null) => boolean),
    now: number,
    closedFor = 0,
  ): [string, KeptOutbox][] {
    const taken = typeof of === "function" ? of : (id: string | null) => sentIn(id, of);
    return this.#outboxKeys()
      .filter((key) => key !== this.#outboxKey)
      .map((key): [string, KeptOutbox | null] => [key, this.#read(key)])
      .filter(
        (entry): entry is [string, KeptOutbox] =>
          !!entry[1] &&
          taken(entry[1].outbox.conversationId) &&
          ((!!entry[1].closed && now - entry[1].at >= closedFor) ||
            now - entry[1].at >= ABANDONED_MS ||
            now - (this.#gone.get(entry[0]) ?? now) >= GONE_AFTER_MS),
      );
  }

  /** Whether `key` (of a `storage` event) is where a tab keeps its outbox. */
  isOutbox(key: string | null): boolean {
    return !!key?.startsWith(`${this.key}:outbox:`);
  }

  storeOutbox(outbox: Outbox | null, closed = false) {
    if (!outbox) return this.#remove(this.#outboxKey);
    const kept: KeptOutbox = { outbox, at: Date.now(), closed, locked: !!this.#release };
    inStorage(() => localStorage.setItem(this.#outboxKey, JSON.stringify(kept)), undefined);
  }

  #outboxKeys(): string[] {
    const keys = () => Array.from({ length: localStorage.length }, (_, i) => localStorage.key(i));
    return inStorage(keys, []).filter((k): k is string => this.isOutbox(k));
  }

  #read(key: string): KeptOutbox | null {
    const kept = inStorage(() => JSON.parse(localStorage.getItem(key) ?? "null"), null);
    return kept && Array.isArray(kept.outbox?.messages) ? kept : null;
  }

  #remove(key: string) {
    inStorage(() => localStorage.removeItem(key), undefined);
  }
}

/** Whether the site named the visitor with an identity its backend signed (`sourceId` and its token). */
const identified = (w: Widget) => !!(w.contact?.sourceId && w.contact.token);

/** Starts or resumes the visitor's session, and shows the stored conversation if it is still theirs. */
export async function connect(w: Widget): Promise<void> {
  const c = w.config;
  if (c.accessType === "private" && !identified(w)) return w.notice(t("signIn"));
  const token = w.storage.stored.token ?? null;
  if (!token && needsPreChat(w)) return preChat(w);
  let started: string | null = null;
  try {
    const session = await visitorSession(w);
    w.api.token = session.token;
    started = session.token;
    w.lapsed = false;
    w.composer.hidden = false;
    const last = w.storage.stored.conversationId;
    const shown = last ? session.conversations.find((x) => x.id === last) : undefined;
    w.storage.handOver(shown?.id ?? null);
    if (shown) {
      const history = await w.load(shown.id);
      // Resolved while the visitor was away (or before they answered): asked now, as the live `resolved` would.
      if (shown.status === "resolved" && !shown.rated) askRating(w);
      restoreOutbox(w, history);
    } else {
      if (last) w.storage.store({ conversationId: null });
      restoreOutbox(w, []);
    }
    // Messages left for another of the visitor's conversations (restoreOutbox takes only this one's).
    void sendElsewhere(w);
    w.sessionRetry.done();
  } catch (err) {
    // Connected only once the conversation is shown: a session whose conversation could not be read is started again
    // (a send with the token alone started a new conversation, and the messages kept were never shown).
    if (started && w.api.token === started) w.api.token = null;
    if (err instanceof ApiError && (err.status === 403 || err.status === 401)) {
      // Refused for good: nothing is tried again (see sessionLater).
      w.sessionRetry.done();
      return w.notice(t(err.status === 403 ? "closed" : "signIn"));
    }
    // Said once, not at each try the page makes by itself (see sessionLater).
    if (expected(err) && !w.sessionRetry.failing) w.error(t("cannotConnect"));
    throw err;
  }
}

/**
 * The visitor's session from the server, its token kept for the site's pages: resumed with the token kept, or
 * started. While the visitor has none, the site's pages start one at a time (a Web Lock), and a page that waited
 * resumes the token the other kept: two pages starting one at once (first messages written in two tabs, or the
 * messages a closed tab left, taken by each page open; see leftUnsent) made two contacts of one visitor.
 */
async function visitorSession(w: Widget) {
  const ask = async () => {
    const session = await w.api.session(identified(w) ? null : (w.storage.stored.token ?? null), w.contact);
    w.storage.store({ token: session.token });
    return session;
  };
  const manager = locks();
  if (!manager || identified(w) || w.storage.stored.token) return ask();
  const name = `${w.storage.key}:session`;
  let asked = false;
  const started = () => {
    asked = true;
    return ask();
  };
  try {
    const first = await manager.request(name, { ifAvailable: true }, (lock) => (lock ? started() : null));
    if (first) return first;
    // Another page is starting it: the token it keeps reaches this page's storage a moment after its lock is let go
    // (Chromium keeps a copy of the site's storage in each page's process), so it is waited for, a while.
    return await manager.request(name, async () => {
      if (!w.storage.stored.token) await tokenKept(w, TOKEN_WAIT_MS);
      return started();
    });
  } catch (err) {
    // No lock to be had (a sandboxed frame): started as where the browser has no Web Locks.
    if (asked || !(err instanceof DOMException)) throw err;
    return ask();
  }
}

/** How long a page that waited for another's session start waits for the token it kept (none: it failed). */
const TOKEN_WAIT_MS = 2000;

/** Settles once another page keeps a token for the visitor (a `storage` event), or after `ms`. */
function tokenKept(w: Widget, ms: number) {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      removeEventListener("storage", seen);
      resolve();
    };
    const seen = (e: StorageEvent) => e.key === w.storage.key && w.storage.stored.token && done();
    const timer = setTimeout(done, ms);
    addEventListener("storage", seen);
  });
}

/**
 * Starts the session as the current attempt (`sessionReady`). One that fails for the network or the API leaves none,
 * so the next open or send tries again, as does the page itself (sessionLater); `connect` has told the visitor. (Kept,
 * a failed attempt made every later await of it fail, and went unhandled in the page.)
 */
export function startSession(w: Widget): Promise<void> {
  const attempt = connect(w);
  w.sessionReady = attempt;
  attempt.catch((err) => {
    if (w.sessionReady === attempt) w.sessionReady = null;
    if (!expected(err)) throw err;
    sessionLater(w, err);
  });
  return attempt;
}

/**
 * A session that could not be had for a reason a retry may mend (the network, the server busy) is started again by the
 * page itself (`Retry`: 1 s, doubling to 30 s, or back online), so that the conversation and the messages the last
 * page left (the outbox) are shown, and those sent, once the service answers. Before, that waited for the visitor to
 * open the chat or write, and a page already open did neither (docs/decisions.md, "The outbox").
 */
function sessionLater(w: Widget, err: ApiError | NetworkError) {
  if (laterMayMend(err)) return w.sessionRetry.later(() => void ensureSession(w));
  // Refused for good: nothing is tried again, and the live stream, renewing, stops (watch in live-view.ts).
  w.sessionRetry.done();
}

/**
 * The visitor's token was refused (it lapses 2 hours after it is issued): the next request renews it (`renew`), so a
 * Retry sends again and the live stream goes on (a settled session kept without its token would do neither).
 */
export function sessionLapsed(w: Widget) {
  w.api.token = null;
  w.sessionReady = null;
  w.lapsed = true;
}

/**
 * A lapsed session renewed with its token (the server renews one it issued within 30 days): the same visitor, so a
 * message sent again keeps its Idempotency-Key's first outcome, and only the token changes. The conversation shown
 * stays as it is: shown again from its history, a message stored before the token lapsed would show beside its Retry
 * (docs/decisions.md, "The widget's live stream").
 */
async function renew(w: Widget): Promise<void> {
  const session = await visitorSession(w).catch((err: unknown) => {
    // The chat closed while the visitor was on the page: said as at its load (connect).
    if (err instanceof ApiError && err.status === 403) w.notice(t("closed"));
    throw err;
  });
  w.api.token = session.token;
  w.lapsed = false;
  w.sessionRetry.done();
}

/** The visitor's session, started (or renewed) when needed; false when there is none (closed, pre-chat form). */
export async function ensureSession(w: Widget): Promise<boolean> {
  if (!w.api.token) {
    const attempt = (w.sessionReady ??= w.lapsed ? renew(w) : connect(w));
    try {
      await attempt;
    } catch (err) {
      if (w.sessionReady === attempt) w.sessionReady = null; // the next send tries again, or the page (sessionLater)
      if (!expected(err)) throw err;
      sessionLater(w, err);
    }
  }
  return !!w.api.token;
}

/**
 * Whether opening the chat starts the session at once: a returning or identified visitor sees their conversations,
 * and a private chat or the pre-chat form says what it needs first. A new visitor's session, and the contact it
 * makes, waits for their first message (`ensureSession`): one who only looks leaves no contact behind. One whose
 * messages a page left unsent (the outbox: a first message sent while no session could be had, then a reload) sees
 * them, and they are sent; before, they showed only once the visitor wrote another.
 */
export function sessionOnOpen(w: Widget): boolean {
  return !!(
    w.storage.stored.token ||
    identified(w) ||
    w.config.accessType === "private" ||
    needsPreChat(w) ||
    w.storage.orphaned(w.conversationId)
  );
}

/**
 * Whether a closed tab left messages unsent before any conversation started, for a visitor whose session can start
 * without asking them anything (a token kept, or none needed: no pre-chat form, no sign-in): the page starts it
 * without waiting for the chat to open, and they are sent (connect). Before, they waited until the visitor opened the
 * chat again on some page, and one who never did, thinking them sent, was never answered. Pages that start it at once
 * make one contact (visitorSession).
 */
export function leftUnsent(w: Widget): boolean {
  const unasked = identified(w) || (w.config.accessType !== "private" && !needsPreChat(w));
  return unasked && w.storage.orphaned(null);
}

/** Whether the visitor must say who they are before a session starts (the pre-chat form). */
export function needsPreChat(w: Widget) {
  return (
    !identified(w) &&
    !w.storage.stored.token &&
    !w.config.enableAnonymous &&
    w.config.accessType !== "private" &&
    !w.contact?.name &&
    !w.contact?.email
  );
}

/**
 * The pre-chat form: a name or an e-mail before the session starts. `why` says why it stands in
 * the way (a message sent before it was filled, which is sent once it is). An empty form is not
 * ignored: it says what it needs.
 */
export function preChat(w: Widget, why?: string) {
  const note = h("p", { class: "err pc-why", id: "pc-why", role: "alert", text: why ?? "" });
  note.hidden = !why;
  const name = h("input", { id: "pc-name", autocomplete: "name", "aria-describedby": "pc-why" }) as HTMLInputElement;
  const email = h("input", {
    id: "pc-email",
    type: "email",
    autocomplete: "email",
    "aria-describedby": "pc-why",
  }) as HTMLInputElement;
  const form = h(
    "form",
    {
      class: "prechat",
      onsubmit: (e: Event) => {
        e.preventDefault();
        if (!name.value.trim() && !email.value.trim()) {
          note.textContent = t("preChatMissing");
          note.hidden = false;
          for (const input of [name, email]) input.setAttribute("aria-invalid", "true");
          return name.focus();
        }
        w.contact = {
          ...w.contact,
          name: name.value.trim() || undefined,
          email: email.value.trim() || undefined,
        };
        w.showEmpty();
        // The designer's preview shows the next step without a session.
        if (w.preview) {
          w.composer.hidden = false;
          return;
        }
        const waiting = w.waiting;
        w.waiting = null;
        // A session that cannot be had now (the network) leaves the message box, and the message the form held is
        // sent as any other: shown, and "Not sent" with its Retry while there is no session. Before, neither form nor
        // box was left, and the message was lost.
        void startSession(w).then(
          () => {
            if (!w.api.token) return;
            // The form (and the button pressed) is gone: the focus goes where the conversation goes on.
            w.input.focus();
            if (waiting) void w.send(waiting);
          },
          (err) => {
            if (!expected(err)) return; // thrown by startSession
            w.composer.hidden = false;
            if (waiting) void w.send(waiting);
          },
        );
      },
    },
    h("p", { text: t("preChatAsk") }),
    note,
    h("label", { for: "pc-name", text: t("name") }),
    name,
    h("label", { for: "pc-email", text: t("email") }),
    email,
    h("button", { type: "submit", text: t("startChatting") }),
  );
  w.log.replaceChildren(form);
  w.chips.replaceChildren();
  w.composer.hidden = true;
  if (why) name.focus();
}
