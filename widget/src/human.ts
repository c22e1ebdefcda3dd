// The human side of a conversation in the widget: a human agent's typing indicator, the visitor's
// own typing signals (throttled), and the satisfaction rating asked once a conversation is resolved.
import { ApiError, type Api } from "./api";
import { NetworkError } from "./sse";

/** How often, at most, the visitor's "typing" is sent while they type. */
const TYPING_EVERY_MS = 3000;
/** An agent's indicator hides after this long without another `typing: true` (their tab may have closed). */
const TYPING_SHOWN_MS = 6000;

const el = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: (Node | string)[]
) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  node.append(...children);
  return node;
};

/** Network failures and refusals of a typing signal or rating are shown or dropped; anything else is a bug. */
const expected = (err: unknown) => err instanceof ApiError || err instanceof NetworkError;

/** "Olivia is typing…": a polite status line under the messages, hidden on `typing: false` or after 6 s. */
export class TypingIndicator {
  readonly element = el("div", { class: "agent-typing", role: "status", "aria-live": "polite" });
  #timer: ReturnType<typeof setTimeout> | undefined;

  show(typing: boolean, name: string) {
    clearTimeout(this.#timer);
    if (!typing) return this.hide();
    this.element.textContent = `${name || "Someone"} is typing…`;
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

/**
 * The rating control: five buttons (1-5 stars, each with its accessible name), then an optional
 * comment and Send. `send` stores it (and throws the API's refusal); the form then thanks the visitor.
 */
export function ratingForm(send: (rating: number, comment: string) => Promise<void>): HTMLElement {
  const heading = el("p", { class: "rate-q", id: "rate-q" }, "How would you rate this conversation?");
  const stars = el("div", { class: "stars", role: "group", "aria-labelledby": "rate-q" });
  const comment = el("textarea", {
    id: "rate-c",
    rows: "2",
    maxlength: "1000",
    placeholder: "Anything to add? (optional)",
  }) as HTMLTextAreaElement;
  const label = el("label", { for: "rate-c", class: "sr" }, "Comment (optional)");
  const submit = el("button", { type: "submit", class: "rate-send" }, "Send rating") as HTMLButtonElement;
  const note = el("p", { class: "rate-note", role: "status" });
  const more = el("div", { class: "rate-more", hidden: "" }, label, comment, submit);
  const form = el(
    "form",
    { class: "rate", "aria-label": "Rate this conversation" },
    heading,
    stars,
    more,
    note,
  ) as HTMLFormElement;
  let rating = 0;
  for (let n = 1; n <= 5; n++) {
    const star = el(
      "button",
      { type: "button", class: "star", "aria-pressed": "false", "aria-label": `${n} star${n > 1 ? "s" : ""} out of 5` },
      "★",
    ) as HTMLButtonElement;
    star.addEventListener("click", () => {
      rating = n;
      for (const [i, s] of [...stars.children].entries()) {
        s.setAttribute("aria-pressed", String(i + 1 === n));
        s.classList.toggle("on", i < n);
      }
      more.hidden = false;
      note.textContent = `${n} of 5 selected.`;
    });
    stars.append(star);
  }
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    if (!rating) return;
    submit.disabled = true;
    send(rating, comment.value.trim()).then(
      () =>
        form.replaceChildren(
          el("p", { class: "rate-done", role: "status" }, `Thank you for your rating (${rating} of 5).`),
        ),
      (err) => {
        if (!expected(err)) throw err;
        submit.disabled = false;
        note.textContent = "Your rating could not be sent. Please try again.";
      },
    );
  });
  return form;
}

export const HUMAN_CSS = `
.agent-typing{font-size:12px;color:var(--muted);padding:0 14px}.agent-typing:empty{display:none}
.rate{align-self:stretch;display:flex;flex-direction:column;gap:6px;border:1px solid var(--line);border-radius:12px;padding:10px 12px;margin:6px 0;background:var(--bb);color:var(--bt)}
.rate-q{margin:0;font-size:14px}
.stars{display:flex;gap:4px}
.star{background:transparent;border:1px solid var(--line);border-radius:8px;width:36px;height:36px;font-size:20px;color:var(--muted);cursor:pointer}
.star.on{color:#b45309;border-color:#b45309}
.rate textarea{border:1px solid var(--line);border-radius:10px;padding:8px 10px;font:inherit;background:var(--bg);color:var(--bt);resize:vertical}
.rate-send{background:var(--p);color:var(--pt);border:0;border-radius:10px;padding:8px}
.rate-send:disabled{opacity:.5}
.rate-note,.rate-done{margin:0;font-size:13px}
`;
