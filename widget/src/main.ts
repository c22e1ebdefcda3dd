// The embeddable chat: <script src="https://<host>/widget.js" data-web-chat-id="..." async></script>
// (or window.AssistantChatSettings = {webChatId, baseUrl?, contact?}). A launcher and a panel in a
// shadow root; data-mode="page" fills the page (the full-page chat at /chat/{id}); data-mode="preview"
// is the console's designer: the configuration comes from the parent page (postMessage, same origin
// only), unsaved, and nothing goes to the API.
import { Api, ApiError, newKey, type Config, type Contact, type Message, type Outgoing, type StatusEvent } from "./api";
import { LiveStream } from "./live";
import { NetworkError, StreamEnded } from "./sse";
import { renderMarkdown } from "./markdown";
import { CSS, textOn } from "./styles";
import { HUMAN_CSS, TypingIndicator, TypingSignal, ratingForm } from "./human";

type Handler = (data?: unknown) => void;
interface Settings {
  webChatId?: string;
  baseUrl?: string;
  mode?: "widget" | "page" | "preview";
  contact?: Contact;
  /** How long a message may wait for the server's answer before it shows as not sent (ms, default 30,000). */
  sendTimeoutMs?: number;
}
declare global {
  interface Window {
    AssistantChatSettings?: Settings;
    AssistantChat?: Record<string, unknown>;
  }
}

const ICONS = {
  chat: "M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H8l-4 4V6a2 2 0 0 1 2-2z",
  close: "M6.4 5 12 10.6 17.6 5 19 6.4 13.4 12 19 17.6 17.6 19 12 13.4 6.4 19 5 17.6 10.6 12 5 6.4z",
  send: "M3 20.5 21 12 3 3.5v6.6L15 12 3 13.9z",
  plus: "M11 5h2v6h6v2h-6v6h-2v-6H5v-2h6z",
  moon: "M12 3a9 9 0 1 0 9 9 7 7 0 0 1-9-9z",
  share:
    "M18 16a3 3 0 0 0-2.4 1.2L8.9 13.7a3 3 0 0 0 0-1.4l6.7-3.5A3 3 0 1 0 15 7l-6.7 3.5a3 3 0 1 0 0 3L15 17a3 3 0 1 0 3-1z",
  mic: "M12 14a3 3 0 0 0 3-3V5a3 3 0 0 0-6 0v6a3 3 0 0 0 3 3zm5-3a5 5 0 0 1-10 0H5a7 7 0 0 0 6 6.9V21h2v-3.1A7 7 0 0 0 19 11z",
  back: "M20 11H7.8l5.6-5.6L12 4l-8 8 8 8 1.4-1.4L7.8 13H20z",
  up: "M2 21h4V9H2v12zm20-11a2 2 0 0 0-2-2h-6.3l1-4.6v-.3c0-.4-.2-.8-.4-1.1L13.2 1 6.6 7.6C6.2 8 6 8.5 6 9v10a2 2 0 0 0 2 2h9c.8 0 1.5-.5 1.8-1.2l3-7.1c.1-.2.2-.5.2-.7v-2z",
  down: "M22 3h-4v12h4V3zM2 14a2 2 0 0 0 2 2h6.3l-1 4.6v.3c0 .4.2.8.4 1.1l1.1 1 6.6-6.6c.4-.4.6-.9.6-1.4V5a2 2 0 0 0-2-2H7c-.8 0-1.5.5-1.8 1.2l-3 7.1c-.1.2-.2.5-.2.7v2z",
  speak: "M3 9v6h4l5 5V4L7 9H3zm13.5 3A4.5 4.5 0 0 0 14 8v8a4.5 4.5 0 0 0 2.5-4z",
  clip: "M16.5 6v11.5a4 4 0 0 1-8 0V5a2.5 2.5 0 0 1 5 0v10.5a1 1 0 0 1-2 0V6H10v9.5a2.5 2.5 0 0 0 5 0V5a4 4 0 0 0-8 0v12.5a5.5 5.5 0 0 0 11 0V6z",
};

/** A file picked for the next message: its upload starts at once; `key` settles when it is stored. */
interface PendingFile {
  name: string;
  key: Promise<string>;
  chip: HTMLElement;
}

const h = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Record<string, unknown> = {},
  ...children: (Node | string | null)[]
) => {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "text") el.textContent = String(v);
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v as EventListener);
    else if (k in el && typeof v !== "string") (el as unknown as Record<string, unknown>)[k] = v;
    else el.setAttribute(k, String(v));
  }
  for (const c of children) if (c !== null) el.append(c);
  return el;
};
const icon = (name: keyof typeof ICONS) => {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
  path.setAttribute("d", ICONS[name]);
  svg.append(path);
  return svg;
};
/** Why a visitor's message was not sent, in the visitor's words. */
function unsentReason(err: ApiError | NetworkError | StreamEnded): string {
  if (!(err instanceof ApiError)) return "Not sent: no connection to the chat. Check your connection, then retry.";
  if (err.status === 429) return "Not sent: too many messages. Wait a moment, then retry.";
  if (err.status === 401) return "Not sent: your session expired. Retry to send it.";
  if (err.code === "timeout") return "Not sent: the chat did not answer in time. Retry to send it.";
  if (err.status >= 400 && err.status < 500) return `Not sent: ${err.message}`;
  if (err.status >= 500) return "Not sent: the chat could not take it just now. Retry in a moment.";
  return "Not sent: no connection to the chat. Check your connection, then retry.";
}

/** A change of who serves the conversation, in the visitor's words (null: nothing to say). */
function statusLine(s: StatusEvent, assistant: string): string | null {
  if (s.progressStatus === "human_serving") return s.agent ? `${s.agent.name} joined the conversation.` : null;
  if (s.progressStatus === "waiting_for_human") return "Someone from our team will join you shortly.";
  if (s.progressStatus === "ai_processing") return `${assistant} is answering again.`;
  if (s.progressStatus === "resolved") return "This conversation was marked as resolved. Write again any time.";
  return null;
}

/** What the network or the API may throw: shown to the visitor; anything else is a bug and propagates. */
const expected = (err: unknown): err is ApiError | NetworkError =>
  err instanceof ApiError || err instanceof NetworkError;
const safeUrl = (u: string | null | undefined) => (u && /^(https?:|\/)/i.test(u) ? u : null);
const HEX = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;

class Widget {
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
  /** A human agent's "is typing…" line, and the visitor's own typing told to the operators (widget/src/human.ts). */
  readonly typingIndicator = new TypingIndicator();
  typingSignal!: TypingSignal;
  /** The current conversation's live stream (see watch). */
  live: LiveStream | null = null;
  /** Live messages that came while this tab was sending: shown once its reply is (see showLive). */
  held: Message[] = [];
  /** Each message row's renderer (see addMessage), to complete a row the live stream brings whole. */
  rendered = new WeakMap<HTMLElement, (m: Message, streaming: boolean) => void>();
  /** The text of the visitor's rows sent from this tab, until the live stream names their message (see showLive). */
  sent = new WeakMap<HTMLElement, string>();
  contact: Contact | undefined;
  /** A message sent before the pre-chat form was filled in: sent once it is. */
  waiting: string | null = null;
  /** A reply is under way (one at a time). */
  busy = false;
  /** A message is being made ready to send (its files, its metadata). */
  preparing = false;
  dark = false;
  handlers = new Map<string, Set<Handler>>();
  ready: Promise<void>;
  sessionReady: Promise<void> | null = null;
  readonly key: string;

  constructor(
    readonly settings: Settings & { webChatId: string; baseUrl: string },
    readonly page: boolean,
    readonly preview = false,
  ) {
    this.api = new Api(settings.baseUrl, settings.webChatId);
    this.contact = settings.contact;
    this.key = `assistant-chat:${settings.webChatId}`;
    this.host.setAttribute("data-assistant-chat", "");
    const sheet = "adoptedStyleSheets" in Document.prototype && "replaceSync" in CSSStyleSheet.prototype;
    if (sheet) {
      const s = new CSSStyleSheet();
      s.replaceSync(CSS + HUMAN_CSS);
      this.root.adoptedStyleSheets = [s];
    } else this.root.append(h("style", { text: CSS + HUMAN_CSS }));
    if (page) {
      this.host.className = "page";
      document.body.style.margin = "0";
    }
    document.body.append(this.host);
    this.ready = this.start();
  }

  get stored(): { token?: string; conversationId?: string; mode?: string } {
    try {
      return JSON.parse(localStorage.getItem(this.key) ?? "{}");
    } catch (err) {
      // Storage refused (a sandboxed frame, private mode) or a value someone else wrote: no session kept.
      if (!(err instanceof DOMException || err instanceof SyntaxError)) throw err;
      return {};
    }
  }
  store(values: Record<string, unknown>) {
    try {
      localStorage.setItem(this.key, JSON.stringify({ ...this.stored, ...values }));
    } catch (err) {
      // Storage refused or full: the session lasts as long as the page.
      if (!(err instanceof DOMException)) throw err;
    }
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
      this.config = await this.api.config();
    } catch (err) {
      if (!expected(err)) throw err;
      console.error("assistant chat: cannot load", err);
      return;
    }
    const c = this.config;
    this.applyTheme(
      this.stored.mode === "dark" ||
        (this.stored.mode !== "light" &&
          (c.defaultThemeMode === "dark" ||
            (c.defaultThemeMode === "system" && matchMedia("(prefers-color-scheme: dark)").matches))),
    );
    this.build();
    this.emit("ready");
    const share = this.page ? new URLSearchParams(location.search).get("share") : null;
    if (share) return this.showShared(share);
    if (!c.isActive) return this.notice("This chat is closed at the moment.");
    if (this.page || this.stored.conversationId) this.sessionReady = this.connect();
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
      if (!this.config.isActive) this.notice("This chat is closed at the moment.");
      // The operator who turns the pre-chat form on sees it as a visitor will.
      else if (this.needsPreChat()) this.preChat();
      if (open) this.open();
      if (first) this.emit("ready");
    });
  }

  applyTheme(dark: boolean) {
    this.dark = dark;
    this.host.classList.toggle("dark", dark);
    const t = (dark ? this.config.darkTheme : this.config.theme) ?? {};
    const set = (name: string, value: unknown) => {
      if (typeof value === "string" && HEX.test(value)) this.host.style.setProperty(name, value);
      else this.host.style.removeProperty(name);
    };
    set("--p", t.primaryColor);
    set(
      "--pt",
      typeof t.primaryColor === "string" && HEX.test(t.primaryColor) ? textOn(t.primaryColor) : dark ? "#0f172a" : null,
    );
    set(
      "--nav",
      t.navbarTextColor ??
        (typeof t.primaryColor === "string" && HEX.test(t.primaryColor)
          ? textOn(t.primaryColor)
          : dark
            ? "#0f172a"
            : null),
    );
    set("--bg", t.conversationBackgroundColor);
    set("--bt", t.chatbotMessageTextColor);
    set("--bb", t.chatbotMessageBackgroundColor);
    set(
      "--ut",
      t.userMessageTextColor ??
        (typeof t.userMessageBackgroundColor === "string" && HEX.test(t.userMessageBackgroundColor)
          ? textOn(t.userMessageBackgroundColor)
          : null),
    );
    set("--ub", t.userMessageBackgroundColor);
    this.host.style.setProperty("--bs", t.chatbotMessageBackgroundShadowEnabled ? "0 1px 3px rgba(0,0,0,.18)" : "none");
    this.host.style.setProperty("--us", t.userMessageBackgroundShadowEnabled ? "0 1px 3px rgba(0,0,0,.18)" : "none");
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
            "aria-label": "Switch light or dark mode",
            title: "Light or dark",
            onclick: () => {
              this.applyTheme(!this.dark);
              this.store({ mode: this.dark ? "dark" : "light" });
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
            "aria-label": "Share this conversation",
            title: "Share",
            onclick: () => this.share(),
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
          "aria-label": "New conversation",
          title: "New conversation",
          onclick: () => this.newConversation(),
        },
        icon("plus"),
      ),
    );
    if (!this.page)
      buttons.push(
        h(
          "button",
          { class: "ib", type: "button", "aria-label": "Close chat", title: "Close", onclick: () => this.close() },
          icon("close"),
        ),
      );
    const back =
      this.page && safeUrl(c.backUrl)
        ? h("a", { class: "ib", href: safeUrl(c.backUrl), "aria-label": "Back" }, icon("back"))
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
    this.log = h("div", { class: "log", role: "log", "aria-live": "polite", "aria-label": "Messages", tabindex: "0" });
    this.status = h("div", { class: "sr", role: "status" });
    this.chips = h("div", { class: "chips" });
    this.input = h("textarea", {
      rows: 1,
      placeholder: "Type your message…",
      "aria-label": "Message",
      maxlength: 32000,
    }) as HTMLTextAreaElement;
    this.input.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
        e.preventDefault();
        this.composer.requestSubmit();
      }
    });
    this.typingSignal = new TypingSignal(this.api);
    this.input.addEventListener("blur", () => this.typingSignal.stop(this.conversationId));
    this.input.addEventListener("input", () => {
      this.typingSignal.input(this.conversationId, !this.input.value.trim());
      this.input.style.height = "auto";
      this.input.style.height = `${Math.min(this.input.scrollHeight, 120)}px`;
    });
    const speech =
      (window as unknown as { SpeechRecognition?: unknown; webkitSpeechRecognition?: unknown }).SpeechRecognition ??
      (window as unknown as { webkitSpeechRecognition?: unknown }).webkitSpeechRecognition;
    const mic =
      c.enableSpeech && speech
        ? h(
            "button",
            {
              class: "mic",
              type: "button",
              "aria-label": "Speak your message",
              "aria-pressed": "false",
              onclick: () => this.listen(speech as new () => SpeechRecognitionLike, mic!),
            },
            icon("mic"),
          )
        : null;
    this.fileBox = h("div", { class: "files", role: "list", "aria-label": "Files to send" });
    let picker: HTMLInputElement | null = null;
    let attach: HTMLElement | null = null;
    if (c.enableFileUpload) {
      const input = (picker = h("input", {
        type: "file",
        multiple: true,
        hidden: true,
        tabindex: "-1",
        "aria-hidden": "true",
        onchange: () => {
          this.attach([...(input.files ?? [])]);
          input.value = "";
        },
      }) as HTMLInputElement);
      attach = h(
        "button",
        {
          class: "mic clip",
          type: "button",
          "aria-label": "Attach a file",
          title: "Attach a file",
          onclick: () => input.click(),
        },
        icon("clip"),
      );
    }
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
      attach,
      mic,
      h("button", { class: "send", type: "submit", "aria-label": "Send" }, icon("send")),
    ) as HTMLFormElement;
    const foot = c.enableShowPoweredBy
      ? h(
          "div",
          { class: "foot" },
          safeUrl(c.poweredByLogo) ? h("img", { src: safeUrl(c.poweredByLogo), alt: "" }) : null,
          " Powered by AI assistant",
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
          "aria-label": `Open chat: ${c.name}`,
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
  }

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
      this.addMessage(
        {
          role: "assistant",
          content: this.config.displayGreeting,
          id: "",
          citations: [],
          toolResults: [],
          feedback: null,
        } as unknown as Message,
        true,
      ).row.classList.add("greeting");
    this.chips.replaceChildren(
      ...this.config.displayConversationStarters.map((s) =>
        h("button", { class: "chip", type: "button", text: s, onclick: () => void this.send(s) }),
      ),
    );
  }

  async connect(): Promise<void> {
    const c = this.config;
    const identified = this.contact?.sourceId && this.contact.token;
    if (c.accessType === "private" && !identified) return this.notice("Please sign in to chat with us.");
    const token = this.stored.token ?? null;
    if (!token && this.needsPreChat()) return this.preChat();
    try {
      const session = await this.api.session(identified ? null : token, this.contact);
      this.api.token = session.token;
      this.store({ token: session.token });
      this.composer.hidden = false;
      const last = this.stored.conversationId;
      if (last && session.conversations.some((x) => x.id === last)) await this.load(last);
      else if (last) this.store({ conversationId: null });
    } catch (err) {
      if (err instanceof ApiError && err.status === 403) return this.notice("This chat is closed at the moment.");
      if (err instanceof ApiError && err.status === 401) return this.notice("Please sign in to chat with us.");
      if (expected(err)) this.error("Could not connect. Check your connection and try again.");
      throw err;
    }
  }

  /** Whether the visitor must say who they are before a session starts (the pre-chat form). */
  needsPreChat() {
    const identified = this.contact?.sourceId && this.contact.token;
    return (
      !identified &&
      !this.stored.token &&
      !this.config.enableAnonymous &&
      this.config.accessType !== "private" &&
      !this.contact?.name &&
      !this.contact?.email
    );
  }

  /**
   * The pre-chat form: a name or an e-mail before the session starts. `why` says why it stands in
   * the way (a message sent before it was filled, which is sent once it is). An empty form is not
   * ignored: it says what it needs.
   */
  preChat(why?: string) {
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
            note.textContent = "Please give your name or your e-mail so we can start.";
            note.hidden = false;
            for (const input of [name, email]) input.setAttribute("aria-invalid", "true");
            return name.focus();
          }
          this.contact = {
            ...this.contact,
            name: name.value.trim() || undefined,
            email: email.value.trim() || undefined,
          };
          this.showEmpty();
          // The designer's preview shows the next step without a session.
          if (this.preview) {
            this.composer.hidden = false;
            return;
          }
          const waiting = this.waiting;
          this.waiting = null;
          const ready = (this.sessionReady = this.connect());
          if (waiting)
            void ready.then(() => {
              if (this.api.token) void this.send(waiting);
            });
        },
      },
      h("p", { text: "Before we start, how can we reach you?" }),
      note,
      h("label", { for: "pc-name", text: "Name" }),
      name,
      h("label", { for: "pc-email", text: "E-mail" }),
      email,
      h("button", { type: "submit", text: "Start chatting" }),
    );
    this.log.replaceChildren(form);
    this.chips.replaceChildren();
    this.composer.hidden = true;
    if (why) name.focus();
  }

  async load(conversationId: string) {
    const { results } = await this.api.history(conversationId);
    this.conversationId = conversationId;
    this.showEmpty();
    if (results.length) this.chips.replaceChildren();
    for (const m of results) this.addMessage(m);
    this.watch(conversationId, results.at(-1) ?? null);
  }

  /**
   * Reads the conversation's live stream while it is the current one, from after `newest` (the
   * newest message shown): a human agent's reply shows at once, and what was stored while the
   * stream was down comes when it is back.
   */
  watch(conversationId: string, newest: Pick<Message, "id" | "sequence"> | null) {
    this.live?.stop();
    this.held = [];
    this.live = new LiveStream(this.api, conversationId, newest, {
      message: (m) => this.showLive(m),
      status: (s) => this.showStatus(s),
      typing: (t) => this.typingIndicator.show(t.typing, t.name),
      expired: async () => {
        this.api.token = null;
        this.store({ token: null });
        return this.session();
      },
    });
  }

  /**
   * A message of the live stream, shown once: a row already there (this tab's own message or reply)
   * is not shown again, and one still marked as streaming or failed is completed. While this tab is
   * sending, messages wait (held) until its reply is shown, so its own do not show twice.
   */
  showLive(m: Message) {
    if (m.conversation !== this.conversationId) return;
    const row = this.rowOf(m.id);
    if (row) return this.rendered.get(row)?.(m, false);
    if (this.busy && m.role !== "agent") return void this.held.push(m);
    // The visitor's own message, sent from this tab: it takes its id.
    const mine =
      m.role === "visitor" &&
      [...this.log.querySelectorAll<HTMLElement>(".row.visitor:not([data-id])")].find(
        (r) => this.sent.get(r) === m.content,
      );
    if (mine) {
      mine.dataset.id = m.id;
      return;
    }
    this.chips.replaceChildren();
    if (m.role === "agent") this.typingIndicator.hide();
    this.addMessage(m);
    if (m.role !== "visitor") this.status.textContent = `${this.nameOf(m)}: ${m.content.slice(0, 300)}`;
    this.emit("message", m);
  }

  /** Messages held while sending (see showLive), now that the reply is shown. */
  releaseHeld() {
    const held = this.held;
    this.held = [];
    for (const m of held) this.showLive(m);
  }

  /** A change of who serves the conversation, as a line in the log. */
  showStatus(s: StatusEvent) {
    const text = statusLine(s, this.config.assistantName ?? this.config.name);
    if (!text) return;
    this.log.append(h("p", { class: "event", role: "status", text }));
    this.typingIndicator.hide();
    if (s.status === "resolved") this.askRating();
    this.scroll();
    this.emit("status", s);
  }

  /** Resolved: the visitor is asked for a rating (once per resolve shown; a second answer replaces the first). */
  askRating() {
    const conversationId = this.conversationId;
    if (!conversationId) return;
    this.log.querySelector(".rate")?.remove();
    this.log.append(
      ratingForm(async (rating, comment) => {
        await this.api.csat(conversationId, rating, comment);
        this.emit("rating", { conversationId, rating, comment });
      }),
    );
  }

  rowOf(id: string) {
    return id ? [...this.log.querySelectorAll<HTMLElement>(".row")].find((row) => row.dataset.id === id) : undefined;
  }

  /** Who wrote a message, as the widget names them. */
  nameOf(m: Message) {
    if (m.role === "visitor") return "You";
    if (m.role === "agent") return m.senderName;
    return this.config.assistantName ?? this.config.name;
  }

  async showShared(share: string) {
    this.composer.hidden = true;
    this.chips.replaceChildren();
    try {
      const { results } = await this.api.shared(share);
      this.log.replaceChildren();
      for (const m of results) this.addMessage(m, true);
    } catch (err) {
      if (!expected(err)) throw err;
      this.notice("This shared conversation is not available.");
    }
  }

  error(text: string) {
    this.log.append(h("p", { class: "err", role: "alert", text }));
    this.scroll();
  }

  scroll() {
    this.log.scrollTop = this.log.scrollHeight;
  }

  /** Adds a message bubble: its row, and a function that re-renders it as its text grows. */
  addMessage(m: Message, readOnly = false) {
    const c = this.config;
    // Who wrote it, as its accessible name: a screen reader (and a test) tells the three apart without CSS.
    const label =
      m.role === "visitor"
        ? "You"
        : m.role === "agent"
          ? `${m.senderName} (team member)`
          : `${this.nameOf(m)} (assistant)`;
    const row = h("div", { class: `row ${m.role}`, "data-id": m.id || null, role: "article", "aria-label": label });
    const col = h("div", { class: "col" });
    if (m.role !== "visitor") {
      const av = safeUrl(m.role === "assistant" ? c.avatar : m.senderAvatar);
      if ((c.enableDisplayChatbotAvatar || m.role === "agent") && av)
        row.append(h("img", { class: "av", src: av, alt: "" }));
      if (m.role === "agent")
        col.append(h("span", { class: "who" }, m.senderName, " ", h("span", { class: "tag", text: "Team member" })));
      else if (c.enableDisplayChatbotName) col.append(h("span", { class: "who", text: this.nameOf(m) }));
    }
    const bubble = h("div", { class: "bubble" });
    col.append(bubble);
    if (m.attachments?.length)
      col.append(
        h(
          "div",
          { class: "files sent" },
          ...m.attachments.map((a) =>
            h("span", { class: "file" }, icon("clip"), h("span", { class: "fn", text: a.filename })),
          ),
        ),
      );
    if (m.role === "visitor" && !m.content) bubble.hidden = true;
    row.append(col);
    this.log.append(row);
    const render = (msg: Message, streaming: boolean) => {
      if ("done" in row.dataset) return; // complete: the live stream may bring the same message again
      if (!streaming && msg.id) row.dataset.done = "";
      bubble.classList.toggle("typing", streaming);
      if (msg.role === "visitor") bubble.textContent = msg.content;
      else
        renderMarkdown(
          msg.content,
          bubble,
          c.enableDisplayCitations && msg.citations.length
            ? (n) =>
                msg.citations[n - 1]
                  ? h("sup", { class: "c", text: `[${n}]`, title: msg.citations[n - 1].title })
                  : null
            : undefined,
        );
      if (!streaming && msg.role === "assistant") {
        if (msg.citations.length) bubble.append(this.sources(msg));
        for (const t of msg.toolResults)
          bubble.append(
            h(
              "details",
              { class: "toolres" },
              h("summary", { text: `${t.name}: ${t.status}` }),
              h("pre", { text: t.output }),
            ),
          );
        if (msg.id && !readOnly) col.append(this.tools(msg));
      }
      this.scroll();
    };
    render(m, false);
    this.rendered.set(row, (msg, streaming) => {
      if (msg.id) row.dataset.id = msg.id;
      render(msg, streaming);
    });
    return { render, row };
  }

  sources(m: Message) {
    const list = h(
      "ol",
      {},
      ...m.citations.map((s) =>
        h(
          "li",
          {},
          h("strong", { text: s.title + (s.page ? ` (p. ${s.page})` : "") }),
          h("span", { class: "sn", text: s.snippet }),
        ),
      ),
    );
    const box = h("details", { class: "sources" }, h("summary", { text: `Sources (${m.citations.length})` }), list);
    if (this.config.enableDownloadCitations) {
      box.append(
        h("button", {
          type: "button",
          class: "chip",
          text: "Download sources",
          onclick: () => {
            const text = m.citations
              .map((s) => `[${s.index}] ${s.title}${s.page ? ` (p. ${s.page})` : ""}\n${s.snippet}\n`)
              .join("\n");
            const a = h("a", {
              href: URL.createObjectURL(new Blob([text], { type: "text/plain" })),
              download: "sources.txt",
            });
            a.click();
            setTimeout(() => URL.revokeObjectURL(a.href), 1000);
          },
        }),
      );
    }
    return box;
  }

  tools(m: Message) {
    const like = h(
      "button",
      { type: "button", "aria-label": "Helpful", "aria-pressed": String(m.feedback === "like") },
      icon("up"),
    );
    const dislike = h(
      "button",
      { type: "button", "aria-label": "Not helpful", "aria-pressed": String(m.feedback === "dislike") },
      icon("down"),
    );
    const rate = async (value: "like" | "dislike") => {
      const next = m.feedback === value ? null : value;
      try {
        m.feedback = (await this.api.feedback(m.id, next)).feedback;
      } catch (err) {
        if (!expected(err)) throw err;
        this.status.textContent = "Your feedback could not be saved. Please try again.";
        return;
      }
      like.setAttribute("aria-pressed", String(m.feedback === "like"));
      dislike.setAttribute("aria-pressed", String(m.feedback === "dislike"));
      this.status.textContent = "Thanks for your feedback.";
    };
    like.addEventListener("click", () => void rate("like"));
    dislike.addEventListener("click", () => void rate("dislike"));
    const bar = h("div", { class: "tools" }, like, dislike);
    if (this.config.enableSpeech && "speechSynthesis" in window) {
      bar.append(
        h(
          "button",
          {
            type: "button",
            "aria-label": "Read aloud",
            onclick: () => {
              speechSynthesis.cancel();
              speechSynthesis.speak(new SpeechSynthesisUtterance(m.content.replace(/\[\d+\]/g, "")));
            },
          },
          icon("speak"),
        ),
      );
    }
    return bar;
  }

  async location(): Promise<Record<string, unknown>> {
    if (!this.config.enableLocation || !navigator.geolocation) return {};
    return new Promise((resolve) =>
      navigator.geolocation.getCurrentPosition(
        (p) => resolve({ location: { latitude: p.coords.latitude, longitude: p.coords.longitude } }),
        () => resolve({}),
        { timeout: 3000, maximumAge: 600_000 },
      ),
    );
  }

  /** The visitor's session, started when needed; false when there is none (closed, pre-chat form). */
  async session(): Promise<boolean> {
    if (!this.api.token) {
      const attempt = (this.sessionReady ??= this.connect());
      try {
        await attempt;
      } catch (err) {
        if (this.sessionReady === attempt) this.sessionReady = null; // the next send tries again
        if (!expected(err)) throw err;
      }
    }
    return !!this.api.token;
  }

  /** Picked files: each uploads at once and shows as a chip until sent or removed (at most 10). */
  attach(picked: File[]) {
    for (const file of picked.slice(0, Math.max(0, 10 - this.files.length))) {
      const state = h("span", { class: "st", text: "Uploading…" });
      const remove = h(
        "button",
        { class: "x", type: "button", "aria-label": `Remove ${file.name}`, title: "Remove" },
        icon("close"),
      );
      const chip = h(
        "div",
        { class: "file", role: "listitem" },
        icon("clip"),
        h("span", { class: "fn", text: file.name, title: file.name }),
        state,
        remove,
      );
      const key = this.session().then((ok) =>
        ok ? this.api.upload(file) : Promise.reject(new ApiError(401, "no_session", "No session.")),
      );
      const item: PendingFile = { name: file.name, key, chip };
      key.then(
        () => {
          state.textContent = "";
          this.status.textContent = `${file.name} is ready to send.`;
        },
        (err) => {
          if (!expected(err)) throw err;
          chip.classList.add("bad");
          state.textContent = err instanceof ApiError && err.status === 400 ? "Not allowed" : "Upload failed";
          chip.title = err instanceof Error ? err.message : "";
          this.status.textContent = `${file.name} could not be uploaded.`;
        },
      );
      remove.addEventListener("click", () => {
        this.files = this.files.filter((f) => f !== item);
        chip.remove();
        this.status.textContent = `${file.name} removed.`;
        this.input.focus();
      });
      this.files.push(item);
      this.fileBox.append(chip);
    }
  }

  async send(text: string) {
    const content = text.trim();
    const pending = this.files;
    if ((!content && !pending.length) || this.busy || this.preparing) return;
    if (!this.config.isActive) return;
    if (this.preview) return this.error("This is a preview: messages are not sent.");
    // Until the message is shown, a second Enter must not send the same text and files again.
    this.preparing = true;
    let attachments: { file: string; filename: string }[];
    let metadata: Record<string, unknown>;
    try {
      if (!(await this.session())) {
        // The pre-chat form stands in the way: the message waits for it, and the visitor is told why.
        if (this.log.querySelector(".prechat") && content) {
          this.waiting = content;
          this.preChat("Tell us your name or your e-mail first: your message is sent as soon as you start.");
        }
        return;
      }
      attachments = await Promise.all(pending.map(async (f) => ({ file: await f.key, filename: f.name })));
      metadata = {
        timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
        pageUrl: location.href.slice(0, 2000),
        ...(await this.location()),
      };
    } catch (err) {
      if (!expected(err)) throw err;
      return this.error("A file could not be uploaded. Remove it and try again.");
    } finally {
      this.preparing = false;
    }
    this.files = [];
    this.fileBox.replaceChildren();
    this.input.value = "";
    this.typingSignal.stop(this.conversationId);
    this.chips.replaceChildren();
    const outgoing: Outgoing = { content, metadata, attachments, key: newKey() };
    const row = this.addMessage({
      role: "visitor",
      content,
      id: "",
      citations: [],
      toolResults: [],
      feedback: null,
      attachments: attachments.map((a) => ({ filename: a.filename, type: "other" })),
    } as unknown as Message).row;
    this.sent.set(row, content);
    this.emit("message", { role: "visitor", content, attachments });
    await this.deliver(outgoing, row);
  }

  /**
   * Sends the visitor's message shown in `row` and shows the reply as it streams. A message the
   * server did not take (refused, no answer in time, offline) is marked "Not sent" with a Retry
   * button, which sends it again with the same Idempotency-Key: never stored twice.
   */
  async deliver(outgoing: Outgoing, row: HTMLElement) {
    if (this.busy || !(await this.session())) return;
    this.busy = true;
    const sendButton = this.composer.querySelector<HTMLButtonElement>(".send")!;
    sendButton.disabled = true;
    row.classList.remove("unsent");
    row.querySelector(".unsent-note")?.remove();
    const reply = {
      role: "assistant",
      content: "",
      id: "",
      citations: [],
      toolResults: [],
      feedback: null,
    } as unknown as Message;
    const { render, row: placeholder } = this.addMessage(reply);
    render(reply, true);
    let answered = false;
    try {
      await this.api.send(
        this.conversationId,
        outgoing,
        (e) => {
          answered = true;
          if (!this.conversationId && e.conversationId) {
            this.conversationId = e.conversationId;
            this.store({ conversationId: e.conversationId });
            this.watch(e.conversationId, null);
          }
          if (e.messageId) placeholder.dataset.id = e.messageId;
          // No reply: a human agent serves the conversation (their answer comes through the live stream).
          if (e.done && !e.message && !reply.content) return placeholder.remove();
          if (e.done) {
            if (e.message) {
              Object.assign(reply, e.message);
              this.live?.saw(e.message);
            }
            render(reply, false);
            this.status.textContent = reply.content ? `${this.nameOf(reply)}: ${reply.content.slice(0, 300)}` : "";
            if (e.message) this.emit("message", e.message);
          } else {
            reply.content += e.content;
            render(reply, true);
          }
        },
        this.settings.sendTimeoutMs ?? 30_000,
      );
    } catch (err) {
      if (!(err instanceof ApiError || err instanceof NetworkError || err instanceof StreamEnded)) throw err;
      const expired = err instanceof ApiError && err.status === 401;
      if (expired) {
        this.api.token = null;
        this.store({ token: null });
      }
      if (!answered) {
        placeholder.remove();
        this.markUnsent(row, outgoing, err);
      } else {
        render(reply, false);
        this.error(
          err instanceof ApiError && err.status === 429
            ? "Too many messages. Please wait a moment."
            : "Sorry, something went wrong. Please try again.",
        );
      }
    } finally {
      this.busy = false;
      sendButton.disabled = false;
      this.releaseHeld();
    }
  }

  /** A visitor's message the server did not take: why, and a Retry that sends it again (same key). */
  markUnsent(row: HTMLElement, outgoing: Outgoing, err: ApiError | NetworkError | StreamEnded) {
    const why = unsentReason(err);
    row.classList.add("unsent");
    const retry = h("button", {
      type: "button",
      class: "retry",
      text: "Retry",
      onclick: () => {
        this.input.focus();
        void this.deliver(outgoing, row);
      },
    });
    row
      .querySelector(".col")!
      .append(h("p", { class: "unsent-note", role: "alert" }, h("span", { text: why }), " ", retry));
    this.status.textContent = why;
    this.scroll();
  }

  listen(Recognition: new () => SpeechRecognitionLike, button: HTMLElement) {
    const rec = new Recognition();
    rec.lang = document.documentElement.lang || navigator.language;
    rec.interimResults = false;
    button.setAttribute("aria-pressed", "true");
    rec.onresult = (e) => {
      this.input.value = (this.input.value ? `${this.input.value} ` : "") + e.results[0][0].transcript;
      this.input.focus();
    };
    rec.onend = () => button.setAttribute("aria-pressed", "false");
    rec.start();
  }

  async share() {
    if (!this.conversationId) return this.error("Send a message first, then share the conversation.");
    try {
      const { url } = await this.api.share(this.conversationId);
      // Refused (no permission, not a secure page): the link shows below anyway.
      await navigator.clipboard?.writeText(url).catch((err) => {
        if (!(err instanceof DOMException)) throw err;
      });
      this.log.append(
        h(
          "p",
          { class: "notice", role: "status" },
          "Link copied: ",
          h("a", { href: url, target: "_blank", rel: "noopener", text: url }),
        ),
      );
      this.scroll();
    } catch (err) {
      if (!expected(err)) throw err;
      this.error("Could not create a share link.");
    }
  }

  open() {
    if (!this.panel || this.page) return;
    this.panel.hidden = false;
    this.launcher?.setAttribute("aria-expanded", "true");
    // The preview stays out of the way of the designer's fields: no session, no focus taken.
    if (!this.preview) {
      this.sessionReady ??= this.connect();
      this.input.focus();
    }
    this.emit("open");
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
    this.conversationId = null;
    this.store({ conversationId: null });
    if (this.config.isActive) this.showEmpty();
    this.input?.focus();
  }

  async setContact(contact: Contact) {
    this.contact = contact;
    this.api.token = null;
    if (contact.sourceId) this.store({ token: null });
    await this.ready;
    if (this.sessionReady || this.page) {
      this.sessionReady = this.connect();
      await this.sessionReady;
    }
  }
}

interface SpeechRecognitionLike {
  lang: string;
  interimResults: boolean;
  onresult: (e: { results: { 0: { transcript: string } }[] }) => void;
  onend: () => void;
  start(): void;
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
  const start = () => {
    const widget = new Widget({ ...given, webChatId, baseUrl }, page, mode === "preview");
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
      on: (event: string, fn: Handler) => {
        if (!widget.handlers.has(event)) widget.handlers.set(event, new Set());
        widget.handlers.get(event)!.add(fn);
        return () => widget.handlers.get(event)!.delete(fn);
      },
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
