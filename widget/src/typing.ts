// Typing, both ways: a human agent's "is typing…" line in the widget, and the visitor's own typing
// told to the operators (throttled).
import { type Api, expected } from "./api";
import { h } from "./dom";
import { t } from "./i18n";

/** How often, at most, the visitor's "typing" is sent while they type. */
const TYPING_EVERY_MS = 3000;
/** An agent's indicator hides after this long without another `typing: true` (their tab may have closed). */
const TYPING_SHOWN_MS = 6000;

/** "Olivia is typing…": a polite status line under the messages, hidden on `typing: false` or after 6 s. */
export class TypingIndicator {
  readonly element = h("div", { class: "agent-typing", role: "status", "aria-live": "polite" });
  #timer: ReturnType<typeof setTimeout> | undefined;

  show(typing: boolean, name: string) {
    clearTimeout(this.#timer);
    if (!typing) return this.hide();
    this.element.textContent = t("typing", { name: name || t("someone") });
    this.#timer = setTimeout(() => this.hide(), TYPING_SHOWN_MS);
  }

  hide() {
    clearTimeout(this.#timer);
    this.element.textContent = "";
  }
}

/** The visitor's typing, told to the operators: `true` at most every 3 s while typing, `false` once on stopping. */
export class TypingSignal {
  #sentAt = 0;
  #typing = false;
  constructor(private readonly api: Api) {}

  input(conversationId: string | null, empty: boolean) {
    if (!conversationId || !this.api.token) return;
    if (empty) return this.stop(conversationId);
    if (Date.now() - this.#sentAt < TYPING_EVERY_MS) return;
    this.#sentAt = Date.now();
    this.#typing = true;
    this.#send(conversationId, true);
  }

  stop(conversationId: string | null) {
    if (!conversationId || !this.#typing) return;
    this.#typing = false;
    this.#sentAt = 0;
    this.#send(conversationId, false);
  }

  #send(conversationId: string, typing: boolean) {
    this.api.typing(conversationId, typing).catch((err) => {
      if (!expected(err)) throw err; // a lost typing signal only costs the indicator
    });
  }
}

export const TYPING_CSS = `
.agent-typing{font-size:12px;color:var(--muted);padding:0 14px}.agent-typing:empty{display:none}
`;
