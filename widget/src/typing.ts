// Typing, both ways: a human agent's "is typing…" line in the widget, and the visitor's own typing
// told to the operators (throttled).
import { type Api, unlessExpected } from "./api";
import { h } from "./dom";
import { t } from "./i18n";

/** How often, at most, the visitor's "typing" is sent while they type. */
const TYPING_EVERY_MS = 3000;
/** An agent's indicator hides after this long without another `typing: true` (their tab may have closed). */
const TYPING_SHOWN_MS = 6000;
/**
 * The assistant's, told once per reply, hides after this long should neither the reply nor its end come (a signal
 * lost on a connection that stayed open; one that drops is opened again, and its opening tells it afresh): a model's
 * answer rarely takes longer.
 */
const REPLYING_SHOWN_MS = 60_000;

/**
 * "Olivia is typing…": a polite status line under the messages, hidden on `typing: false` or after 6 s; the assistant's
 * ("Ava is typing…") while a reply this tab did not ask for is under way (`event: replying`), at most 60 s.
 */
export class TypingIndicator {
  readonly element = h("div", { class: "agent-typing", role: "status", "aria-live": "polite" });
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Whose typing it shows: a reply's end hides the assistant's, never a person's. */
  #assistant = false;

  show(typing: boolean, name: string) {
    if (!typing) return this.hide();
    this.#show(t("typing", { name: name || t("someone") }), false, TYPING_SHOWN_MS);
  }

  assistantReplying(name: string) {
    this.#show(t("typing", { name }), true, REPLYING_SHOWN_MS);
  }

  hideAssistant() {
    if (this.#assistant) this.hide();
  }

  hide() {
    clearTimeout(this.#timer);
    this.#assistant = false;
    this.element.textContent = "";
  }

  #show(text: string, assistant: boolean, ms: number) {
    clearTimeout(this.#timer);
    this.#assistant = assistant;
    // Set only when it changes: a status line set again is read again.
    if (this.element.textContent !== text) this.element.textContent = text;
    this.#timer = setTimeout(() => this.hide(), ms);
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
    // A lost typing signal only costs the indicator.
    this.api.typing(conversationId, typing).catch(unlessExpected);
  }
}

export const TYPING_CSS = `
.agent-typing{font-size:12px;color:var(--muted);padding:0 14px}.agent-typing:empty{display:none}
`;
