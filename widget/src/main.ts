// The embeddable chat: <script src="https://<host>/widget.js" data-web-chat-id="..." async></script>
// (or window.AssistantChatSettings = {webChatId, baseUrl?, contact?, lang?}); data-lang="zh-TW" (or
// "en") fixes its language. A launcher and a panel in a shadow root; data-mode="page" fills the page
// (the full-page chat at /chat/{id}, where `?lang=` fixes the language); data-mode="preview"
// is the console's designer: the configuration comes from the parent page (postMessage, same origin
// only), unsaved, and nothing goes to the API.
//
// The Widget below holds the state and the panel; each concern is a module beside it: dom (markup),
// theme, session (storage, session, pre-chat form), messages (the log's rows), stream (sending and
// the streamed reply), live-view (the live stream's events), attachments, speech, share, rating
// (CSAT), typing, and i18n (the visitor's language: every text the widget itself shows).
import { Api, expected, unlessExpected, type Config, type Contact, type Message, type Outgoing } from "./api";
import { filePicker, restoreFiles, type PendingFile } from "./attachments";
import { h, icon, safeUrl } from "./dom";
import { chooseLanguage, t } from "./i18n";
import type { LiveStream } from "./live";
import { watch } from "./live-view";
import { addMessage, draft, showEarlier } from "./messages";
import { RATING_CSS } from "./rating";
import { laterMayMend, type Reason } from "./refusals";
import { Retry } from "./retry";
import { connect, leftUnsent, needsPreChat, preChat, sessionOnOpen, startSession, VisitorStorage } from "./session";
import { share, showShared } from "./share";
import { micButton } from "./speech";
import { ADOPT_AFTER_MS, ORPHANS_CHECK_MS, adoptOrphans, orphansLeft, saveOutbox, send } from "./stream";
import { CSS } from "./styles";
import { applyTheme, startsDark } from "./theme";
import { TYPING_CSS, TypingIndicator, TypingSignal } from "./typing";
import { followUnread } from "./unread";

type Handler = (data?: unknown) => void;
interface Settings {
  webChatId?: string;
  baseUrl?: string;
  mode?: "widget" | "page" | "preview";
  contact?: Contact;
  /**
   * The widget's language, whatever the visitor's browser prefers: "en" or "zh-TW" (zh-HK, zh-Hant, en-GB... too);
   * one the widget does not speak leaves the choice to the browser (docs/decisions.md, "Widget defaults").
   */
  lang?: string;
  /** How long a message may wait for the server's answer before it shows as not sent (ms, default 30,000). */
  sendTimeoutMs?: number;
}
declare global {
  interface Window {
    AssistantChatSettings?: Settings;
    AssistantChat?: Record<string, unknown>;
  }
}

export class Widget {
  readonly host = document.createElement("div");
  readonly root = this.host.attachShadow({ mode: "open" });
  readonly api: Api;
  config!: Config;
  panel!: HTMLElement;
  log!: HTMLElement;
  launcher: HTMLButtonElement | null = null;
  input!: HTMLTextAreaElement;
  chips!: HTMLElement;
  composer!: HTMLFormElement;
  status!: HTMLElement;
  fileBox!: HTMLElement;
  files: PendingFile[] = [];
  conversationId: string | null = null;
  /** A human agent's "is typing…" line, and the visitor's own typing told to the operators (widget/src/typing.ts). */
  readonly typingIndicator = new TypingIndicator();
  typingSignal!: TypingSignal;
  /** The current conversation's live stream (see watch in live-view.ts). */
  live: LiveStream | null = null;
  /** Live messages that came while this tab was sending: shown once its reply is (see showLive). */
  held: Message[] = [];
  /** Each message row's renderer (see addMessage), to complete a row the live stream brings whole. */
  rendered = new WeakMap<HTMLElement, (m: Message, streaming: boolean) => void>();
  /** What the visitor's rows of this tab send (words and key), until the live stream names their message (claimed). */
  sent = new WeakMap<HTMLElement, Outgoing>();
  contact: Contact | undefined;
  /** A message sent before the pre-chat form was filled in: sent once it is. */
  waiting: string | null = null;
  /** A reply is under way (one at a time). */
  busy = false;
  /**
   * The visitor's messages not yet delivered, in the order written: shown at once, sent one at a time (see `next` in
   * stream.ts). The first may be one whose send failed and that a retry may mend: it then holds the others (`stalled`).
   */
  queued: { outgoing: Outgoing; row: HTMLElement }[] = [];
  /** The first queued message was not sent: the others wait for its Retry (or a new message) to send it first. */
  stalled = false;
  /**
   * The visitor's messages refused for good (what stood in the way was the message or the chat, so nothing waits
   * behind them), in the order written, with why: kept in the outbox until sent again or removed (see markUnsent).
   */
  refused: { outgoing: Outgoing; row: HTMLElement; reason: Reason }[] = [];
  /** The message being sent, until the server takes it (its first event): kept in the outbox meanwhile. */
  sending: { outgoing: Outgoing; row: HTMLElement } | null = null;
  /** The newest message shown as it left: a reload finds it stored only after that one (restoreOutbox). */
  sendingAfter = 0;
  /** Messages other tabs left for another of the visitor's conversations are being sent (sendElsewhere). */
  sendingElsewhere = false;
  /** Taking other tabs' messages failed: tried again (`orphansLater` in stream.ts). */
  readonly orphansRetry = new Retry();
  /** Starting (or renewing) the session failed: tried again (`ensureSession` in session.ts). */
  readonly sessionRetry = new Retry();
  /** Following the conversation another tab started failed: tried again (`follow`). */
  readonly followRetry = new Retry();
  /** Rows whose send reached the server, with its `sendingAfter`: the live stream may show them stored (claimed). */
  attempted = new WeakMap<HTMLElement, number>();
  /** Counts the visitor's new conversations: a send begun before one changes nothing after it (see deliver). */
  generation = 0;
  /**
   * A person serves the conversation (told by the live stream's status, or by a send the assistant did not
   * answer): a send shows no assistant typing, since the reply comes from the person.
   */
  humanServing = false;
  /** A message is being made ready to send (its files, its metadata). */
  preparing = false;
  dark = false;
  handlers = new Map<string, Set<Handler>>();
  ready: Promise<void>;
  sessionReady: Promise<void> | null = null;
  /** The visitor's token was refused: the next request renews the session rather than starting it (session.ts). */
  lapsed = false;
  readonly storage: VisitorStorage;
  /** The tab's name is known and its last page's outbox set aside (see the constructor). */
  claimed: Promise<void> = Promise.resolve();

  constructor(
    readonly settings: Settings & { webChatId: string; baseUrl: string },
    readonly page: boolean,
    readonly preview = false,
  ) {
    this.api = new Api(settings.baseUrl, settings.webChatId);
    this.contact = settings.contact;
    this.storage = new VisitorStorage(`assistant-chat:${settings.webChatId}`);
    if (!preview) {
      // The tab's name known (a duplicated tab takes its own) and its lock held while the page lives, whatever it
      // shows (claimTab); then, reloaded, the outbox the last page left is set aside before this page saves its own
      // (see setAsideOutbox). The lock is let go as the page leaves, for the back/forward cache.
      this.claimed = this.storage.claimTab().then(() => this.storage.setAsideOutbox());
      addEventListener("pagehide", () => this.storage.letTabGo());
      addEventListener("pageshow", (e) => e.persisted && this.storage.holdTab());
    }
    this.host.setAttribute("data-assistant-chat", "");
    // The widget's own language, whatever the host page's: a screen reader pronounces its text right.
    this.host.lang = chooseLanguage(settings.lang);
    const css = CSS + TYPING_CSS + RATING_CSS;
    const sheet = "adoptedStyleSheets" in Document.prototype && "replaceSync" in CSSStyleSheet.prototype;
    if (sheet) {
      const s = new CSSStyleSheet();
      s.replaceSync(css);
      this.root.adoptedStyleSheets = [s];
    } else this.root.append(h("style", { text: css }));
    if (page) {
      // The full-page chat's document is the widget's alone: it says the same language.
      document.documentElement.lang = this.host.lang;
      this.host.className = "page";
      document.body.style.margin = "0";
    }
    document.body.append(this.host);
    this.ready = this.start();
  }

  /** Calls `fn` on each `event` (the host page's `AssistantChat.on`); returns what stops it. */
  on(event: string, fn: Handler) {
    if (!this.handlers.has(event)) this.handlers.set(event, new Set());
    this.handlers.get(event)!.add(fn);
    return () => this.handlers.get(event)!.delete(fn);
  }

  emit(event: string, data?: unknown) {
    for (const fn of this.handlers.get(event) ?? []) {
      try {
        fn(data);
      } catch (err) {
        console.error(err); // the host page's handler failed: reported, and the widget goes on
      }
    }
  }

  async start() {
    if (this.preview) return this.previewed();
    try {
      [this.config] = await Promise.all([this.api.config(), this.claimed]);
    } catch (err) {
      if (!expected(err)) throw err;
      console.error("assistant chat: cannot load", err);
      return;
    }
    const c = this.config;
    this.applyTheme(startsDark(this.storage.stored.mode, c));
    this.build();
    followUnread(this);
    this.emit("ready");
    const token = this.page ? new URLSearchParams(location.search).get("share") : null;
    if (token) return showShared(this, token);
    if (!c.isActive) return this.notice(t("closed"));
    const shown = this.page || this.storage.stored.conversationId || leftUnsent(this);
    if (shown && sessionOnOpen(this)) startSession(this);
    // Not reachable now: this tab stays where it is, and follows (or adopts) at the next change.
    const adopt = () => adoptOrphans(this).catch(unlessExpected);
    addEventListener("storage", (e) => {
      if (e.key === this.storage.key) this.follow().catch(unlessExpected);
      // Another tab closed with messages unsent: sent from here, unless it was a reload that takes them back at once
      // (docs/decisions.md, "The outbox").
      else if (this.storage.isOutbox(e.key)) setTimeout(adopt, ADOPT_AFTER_MS);
    });
    // The same without the event, which a browser under load may deliver late or not at all, and for tabs gone without
    // a word (orphansLeft; seeTabs).
    const lookForOrphans = () =>
      void this.storage.seeTabs().then(() => {
        if (orphansLeft(this)) return adopt();
      });
    lookForOrphans();
    setInterval(lookForOrphans, ORPHANS_CHECK_MS);
    addEventListener("focus", lookForOrphans);
    document.addEventListener("visibilitychange", () => document.visibilityState === "visible" && lookForOrphans());
    // Closing, this tab says so: a tab open or opened next sends what it had not. Back from the browser's page cache,
    // its outbox is its own again.
    addEventListener("pagehide", () => saveOutbox(this, true));
    addEventListener("pageshow", (e) => e.persisted && saveOutbox(this));
  }

  /**
   * Another tab of the site started a new conversation, or its first message started one: this tab follows while it
   * has nothing of its own under way, so the visitor's next messages do not go to two conversations at once
   * (docs/decisions.md, "The outbox").
   */
  async follow() {
    const now = this.storage.stored.conversationId ?? null;
    if (now === this.conversationId || !this.api.token || this.busy || this.sending || this.queued.length) return;
    if (!now) return this.newConversation();
    try {
      await this.load(now);
      this.followRetry.done();
    } catch (err) {
      // Its messages not read (the network, the server busy): followed by itself a moment later. Waiting for the next
      // `storage` event, the tab stayed in the conversation the visitor had left, and sent their next message there.
      if (expected(err) && laterMayMend(err)) this.followRetry.later(() => this.follow().catch(unlessExpected));
      throw err;
    }
  }

  /**
   * Preview: each message from the parent page ({type: "assistant-chat:preview", config, dark})
   * draws the widget afresh with that configuration, open unless the operator closed it.
   */
  previewed() {
    addEventListener("message", (e: MessageEvent) => {
      // `origin`, not location.origin: the designer's frame is an about:srcdoc document of the console's origin.
      if (e.source !== parent || e.origin !== origin || e.data?.type !== "assistant-chat:preview") return;
      const first = !this.config;
      const open = first || !this.panel.hidden;
      this.panel?.remove();
      this.launcher?.remove();
      this.config = e.data.config as Config;
      this.applyTheme(!!e.data.dark);
      this.build();
      if (!this.config.isActive) this.notice(t("closed"));
      // The operator who turns the pre-chat form on sees it as a visitor will.
      else if (needsPreChat(this)) preChat(this);
      if (open) this.open();
      if (first) this.emit("ready");
    });
  }

  applyTheme(dark: boolean) {
    this.dark = dark;
    applyTheme(this.host, this.config, dark);
  }

  build() {
    const c = this.config;
    const avatar = safeUrl(c.logo) ?? safeUrl(c.avatar);
    const buttons: HTMLElement[] = [];
    if (c.enableThemeModeToggle) {
      buttons.push(
        h(
          "button",
          {
            class: "ib",
            type: "button",
            "aria-label": t("themeToggle"),
            title: t("themeTitle"),
            onclick: () => {
              this.applyTheme(!this.dark);
              this.storage.store({ mode: this.dark ? "dark" : "light" });
            },
          },
          icon("moon"),
        ),
      );
    }
    if (c.enableShareConversation)
      buttons.push(
        h(
          "button",
          {
            class: "ib",
            type: "button",
            "aria-label": t("share"),
            title: t("shareTitle"),
            onclick: () => share(this),
          },
          icon("share"),
        ),
      );
    buttons.push(
      h(
        "button",
        {
          class: "ib",
          type: "button",
          "aria-label": t("newConversation"),
          title: t("newConversation"),
          onclick: () => this.newConversation(),
        },
        icon("plus"),
      ),
    );
    if (!this.page)
      buttons.push(
        h(
          "button",
          { class: "ib", type: "button", "aria-label": t("closeChat"), title: t("close"), onclick: () => this.close() },
          icon("close"),
        ),
      );
    const back =
      this.page && safeUrl(c.backUrl)
        ? h("a", { class: "ib", href: safeUrl(c.backUrl), "aria-label": t("back") }, icon("back"))
        : null;
    const header = h(
      "header",
      {},
      back,
      avatar ? h("img", { src: avatar, alt: "" }) : null,
      h(
        "div",
        { class: "t" },
        h("h2", { id: "title", text: c.name }),
        c.description ? h("p", { text: c.description }) : null,
      ),
      ...buttons,
    );
    this.log = h("div", { class: "log", role: "log", "aria-live": "polite", "aria-label": t("log"), tabindex: "0" });
    this.status = h("div", { class: "sr", role: "status" });
    this.chips = h("div", { class: "chips" });
    this.input = h("textarea", {
      rows: 1,
      placeholder: t("placeholder"),
      "aria-label": t("message"),
      maxlength: 32000,
    }) as HTMLTextAreaElement;
    this.input.addEventListener("keydown", (e) => {
      // Enter confirming an input method's candidate is the IME's: Safari says so only by keyCode 229.
      if (e.key === "Enter" && !e.shiftKey && !e.isComposing && e.keyCode !== 229) {
        e.preventDefault();
        this.composer.requestSubmit();
      }
    });
    this.typingSignal = new TypingSignal(this.api);
    this.input.addEventListener("blur", () => this.typingSignal.stop(this.conversationId));
    this.input.addEventListener("input", () => {
      this.typingSignal.input(this.conversationId, !this.input.value.trim());
      if (!this.preview) this.storage.draft = this.input.value;
      this.fitInput();
    });
    // What the visitor had written and not sent on the last page of this tab (the site's next page, a reload).
    if (!this.preview) this.input.value = this.storage.draft;
    const mic = c.enableSpeech ? micButton(this.input) : null;
    this.fileBox = h("div", { class: "files", role: "list", "aria-label": t("filesToSend") });
    // And the files it had uploaded for that message.
    if (!this.preview) restoreFiles(this);
    const [picker, attachButton] = c.enableFileUpload ? filePicker(this) : [null, null];
    this.composer = h(
      "form",
      {
        class: "composer",
        onsubmit: (e: Event) => {
          e.preventDefault();
          void this.send(this.input.value);
        },
      },
      this.input,
      picker,
      attachButton,
      mic,
      h("button", { class: "send", type: "submit", "aria-label": t("send") }, icon("send")),
    ) as HTMLFormElement;
    const foot = c.enableShowPoweredBy
      ? h(
          "div",
          { class: "foot" },
          safeUrl(c.poweredByLogo) ? h("img", { src: safeUrl(c.poweredByLogo), alt: "" }) : null,
          ` ${t("poweredBy")}`,
        )
      : null;
    this.panel = h(
      "section",
      {
        class: "panel",
        role: this.page ? "main" : "dialog",
        "aria-labelledby": "title",
        "aria-modal": this.page ? null : "true",
        hidden: !this.page,
      },
      header,
      safeUrl(c.cover) ? h("img", { class: "cover", src: safeUrl(c.cover), alt: "" }) : null,
      this.log,
      this.typingIndicator.element,
      this.status,
      this.chips,
      this.fileBox,
      this.composer,
      foot,
    );
    this.panel.addEventListener("keydown", (e) => this.trap(e));
    if (!this.page) {
      this.launcher = h(
        "button",
        {
          class: "launcher",
          type: "button",
          "aria-label": t("openChat", { name: c.name }),
          "aria-expanded": "false",
          "aria-haspopup": "dialog",
          onclick: () => this.toggle(),
        },
        icon("chat"),
      ) as HTMLButtonElement;
      this.root.append(this.launcher);
    }
    this.root.append(this.panel);
    this.showEmpty();
    this.fitInput();
  }

  /** Keyboard in the panel: Escape closes it, Tab stays inside it (a dialog; the full page has neither). */
  trap(e: KeyboardEvent) {
    if (e.key === "Escape" && !this.page) {
      e.stopPropagation();
      this.close();
      return;
    }
    if (e.key !== "Tab" || this.page) return;
    const focusable = [
      ...this.panel.querySelectorAll<HTMLElement>("button,a[href],textarea,input,[tabindex='0'],summary"),
    ].filter((el) => !el.hasAttribute("disabled") && el.offsetParent !== null);
    if (!focusable.length) return;
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    const active = this.root.activeElement;
    if (e.shiftKey && active === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && active === last) {
      e.preventDefault();
      first.focus();
    }
  }

  notice(text: string) {
    this.log.replaceChildren(h("p", { class: "notice", text }));
    this.chips.replaceChildren();
    this.composer.hidden = true;
  }

  /** The greeting and the starters, as a new conversation shows them. */
  showEmpty() {
    this.log.replaceChildren();
    if (this.config.displayGreeting)
      addMessage(this, draft({ role: "assistant", content: this.config.displayGreeting }), true).row.classList.add(
        "greeting",
      );
    this.chips.replaceChildren(
      ...this.config.displayConversationStarters.map((s) =>
        h("button", { class: "chip", type: "button", text: s, onclick: () => void this.send(s) }),
      ),
    );
  }

  /** Shows a conversation of the visitor's (the one stored at the last visit) and follows its live stream. */
  async load(conversationId: string) {
    const { results, hasMore } = await this.api.history(conversationId);
    this.conversationId = conversationId;
    this.humanServing = false;
    this.showEmpty();
    if (results.length) this.chips.replaceChildren();
    if (hasMore && results.length) showEarlier(this, conversationId, results[0].sequence);
    for (const m of results) addMessage(this, m);
    // This tab's messages not sent stay shown, last: refused for good, when it follows another conversation (a Retry
    // sends them there); waiting to be sent, when the page connects by itself (sessionLater in session.ts).
    for (const { row } of [...this.refused, ...this.queued]) this.log.append(row);
    if (this.refused.length) saveOutbox(this);
    watch(this, conversationId, results.at(-1) ?? null);
    return results;
  }

  error(text: string) {
    this.log.append(h("p", { class: "err", role: "alert", text }));
    this.scroll();
  }

  scroll() {
    this.log.scrollTop = this.log.scrollHeight;
  }

  send(text: string) {
    return send(this, text);
  }

  open() {
    if (!this.panel || this.page) return;
    this.panel.hidden = false;
    // At the newest message: shown while the panel was closed (a returning visitor's history, a person's reply), the
    // log could not be scrolled.
    this.scroll();
    this.fitInput();
    this.launcher?.setAttribute("aria-expanded", "true");
    // The preview stays out of the way of the designer's fields: no session, no focus taken.
    if (!this.preview) {
      if (sessionOnOpen(this) && !this.sessionReady) startSession(this);
      // The pre-chat form, when it stands before the conversation, is where the visitor writes first.
      (this.log.querySelector<HTMLElement>(".prechat input") ?? this.input).focus();
    }
    this.emit("open");
  }

  /** The message box grows with its text, up to 120 px, then scrolls (measured once shown). */
  fitInput() {
    // Not drawn yet (the panel closed): measured when it opens. Empty, it is the stylesheet's one line.
    if (this.panel.hidden) return;
    if (!this.input.value) {
      this.input.style.height = "";
      return;
    }
    this.input.style.height = "auto";
    this.input.style.height = `${Math.min(this.input.scrollHeight, 120)}px`;
  }

  close() {
    if (!this.panel || this.page || this.panel.hidden) return;
    this.panel.hidden = true;
    this.launcher?.setAttribute("aria-expanded", "false");
    this.launcher?.focus();
    this.emit("close");
  }

  toggle() {
    if (this.panel?.hidden) this.open();
    else this.close();
  }

  newConversation() {
    this.live?.stop();
    this.live = null;
    // A reply still streaming ends in the old conversation, unseen; messages queued for it, or kept as refused, are
    // dropped with their rows: the visitor starts afresh (here, or in another tab this one follows).
    this.generation++;
    this.queued = [];
    this.refused = [];
    this.stalled = false;
    this.sending = null;
    this.conversationId = null;
    this.humanServing = false;
    this.storage.store({ conversationId: null });
    this.storage.storeOutbox(null);
    if (!this.config.isActive) return this.input?.focus();
    // Nobody has said who they are yet: the form stays where the conversation would start (replaced by the empty log,
    // it left neither form nor message box).
    if (!this.api.token && !this.storage.stored.token && needsPreChat(this)) return void preChat(this);
    this.showEmpty();
    this.input?.focus();
  }

  async setContact(contact: Contact) {
    this.contact = contact;
    this.api.token = null;
    if (contact.sourceId) this.storage.store({ token: null });
    await this.ready;
    if (this.sessionReady || this.page) {
      this.sessionReady = connect(this);
      await this.sessionReady;
    }
  }
}

function boot() {
  const script =
    (document.currentScript as HTMLScriptElement | null) ??
    document.querySelector<HTMLScriptElement>("script[data-web-chat-id]");
  const given = window.AssistantChatSettings ?? {};
  const mode = given.mode ?? script?.dataset.mode;
  const webChatId = given.webChatId ?? script?.dataset.webChatId ?? (mode === "preview" ? "preview" : undefined);
  if (!webChatId)
    return console.error(
      "assistant chat: set data-web-chat-id on the script tag or window.AssistantChatSettings.webChatId",
    );
  const baseUrl = (
    given.baseUrl ?? (script?.src ? new URL(script.src, location.href).origin : location.origin)
  ).replace(/\/$/, "");
  const page = mode === "page";
  // The full-page chat's address is ours (/chat/{id}?lang=zh-TW); a host page's query string is the site's own.
  const lang = given.lang ?? script?.dataset.lang ?? (page ? new URLSearchParams(location.search).get("lang") : null);
  const start = () => {
    const widget = new Widget({ ...given, webChatId, baseUrl, lang: lang ?? undefined }, page, mode === "preview");
    const api = {
      open: () => widget.ready.then(() => widget.open()),
      close: () => widget.close(),
      toggle: () => widget.ready.then(() => widget.toggle()),
      send: async (text: string) => {
        await widget.ready;
        if (!page) widget.open();
        await widget.send(text);
      },
      newConversation: () => widget.newConversation(),
      setContact: (c: Contact) => widget.setContact(c),
      on: (event: string, fn: Handler) => widget.on(event, fn),
    };
    // Calls queued before the script loaded: window.AssistantChat = [["open"], ...].
    const queued = Array.isArray(window.AssistantChat)
      ? (window.AssistantChat as unknown as [string, ...unknown[]][])
      : [];
    window.AssistantChat = api;
    for (const [name, ...args] of queued)
      (api as unknown as Record<string, (...a: unknown[]) => unknown>)[name]?.(...args);
  };
  if (document.body) start();
  else document.addEventListener("DOMContentLoaded", start, { once: true });
}

boot();
