// The satisfaction rating (CSAT) of a resolved conversation: asked in the log once the live stream
// says `resolved`, five stars then an optional comment, stored through the widget API.
import { expected } from "./api";
import { h } from "./dom";
import { t } from "./i18n";
import type { Widget } from "./main";
import { TEXT_BOX } from "./styles";

/** Resolved: the visitor is asked for a rating (once per resolve shown; a second answer replaces the first). */
export function askRating(w: Widget) {
  const conversationId = w.conversationId;
  if (!conversationId) return;
  w.log.querySelector(".rate")?.remove();
  w.log.append(
    ratingForm(async (rating, comment) => {
      await w.api.csat(conversationId, rating, comment);
      w.emit("rating", { conversationId, rating, comment });
    }),
  );
}

/**
 * The question taken back, unanswered, once the conversation is open again (the visitor wrote on, or a person took it
 * over): only a resolved conversation can be rated, so its Send could only fail. A rating given stays, as its thanks.
 */
export function withdrawRating(w: Widget) {
  for (const form of w.log.querySelectorAll(".rate")) if (!form.querySelector(".rate-done")) form.remove();
}

/**
 * The rating control: five buttons (1-5 stars, each with its accessible name), then an optional
 * comment and Send. `send` stores it (and throws the API's refusal); the form then thanks the visitor.
 */
function ratingForm(send: (rating: number, comment: string) => Promise<void>): HTMLElement {
  const heading = h("p", { class: "rate-q", id: "rate-q" }, t("rateQuestion"));
  const stars = h("div", { class: "stars", role: "group", "aria-labelledby": "rate-q" });
  const comment = h("textarea", {
    id: "rate-c",
    rows: "2",
    maxlength: "1000",
    placeholder: t("ratePlaceholder"),
  }) as HTMLTextAreaElement;
  const label = h("label", { for: "rate-c", class: "sr" }, t("rateComment"));
  const submit = h("button", { type: "submit", class: "rate-send" }, t("rateSend")) as HTMLButtonElement;
  const note = h("p", { class: "rate-note", role: "status" });
  const more = h("div", { class: "rate-more", hidden: "" }, label, comment, submit);
  const form = h("form", { class: "rate", "aria-label": t("rateForm") }, heading, stars, more, note) as HTMLFormElement;
  let rating = 0;
  for (let n = 1; n <= 5; n++) {
    const star = h(
      "button",
      { type: "button", class: "star", "aria-pressed": "false", "aria-label": t(n > 1 ? "stars" : "star", { n }) },
      "★",
    ) as HTMLButtonElement;
    star.addEventListener("click", () => {
      rating = n;
      for (const [i, s] of [...stars.children].entries()) {
        s.setAttribute("aria-pressed", String(i + 1 === n));
        s.classList.toggle("on", i < n);
      }
      more.hidden = false;
      note.textContent = t("rateSelected", { n });
    });
    stars.append(star);
  }
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    if (!rating) return;
    // The focus in the form (on Send, which is disabled while the rating is sent, then gone with the form) goes to
    // the thanks, where the visitor was: not lost, and not to the message box, which would open a phone's keyboard.
    const focused = form.contains((form.getRootNode() as Document | ShadowRoot).activeElement);
    submit.disabled = true;
    send(rating, comment.value.trim()).then(
      () => {
        const thanks = h("p", { class: "rate-done", role: "status", tabindex: "-1" }, t("rateThanks", { n: rating }));
        form.replaceChildren(thanks);
        if (focused) thanks.focus();
      },
      (err) => {
        if (!expected(err)) throw err;
        submit.disabled = false;
        note.textContent = t("rateFailed");
        if (focused) submit.focus();
      },
    );
  });
  return form;
}

export const RATING_CSS = `
.rate{
  align-self:stretch;
  display:flex;
  flex-direction:column;
  gap:6px;
  border:1px solid var(--line);
  border-radius:12px;
  padding:10px 12px;
  margin:6px 0;
  background:var(--bb);
  color:var(--bt);
}
.rate-q{margin:0;font-size:14px}
.stars{display:flex;gap:4px}
.star{
  background:transparent;
  border:1px solid var(--line);
  border-radius:8px;
  width:36px;
  height:36px;
  font-size:20px;
  color:var(--muted);
  cursor:pointer;
}
.star.on{color:#b45309;border-color:#b45309}
.rate textarea{
  ${TEXT_BOX}
  border-radius:10px;
  padding:8px 10px;
  resize:vertical;
}
.rate-send{background:var(--p);color:var(--pt);border:0;border-radius:10px;padding:8px}
.rate-send:disabled{opacity:.5}
.rate-note,.rate-done{margin:0;font-size:13px}
`;
