import { useEffect, useRef } from "preact/hooks";
import { type Conversation, sendTyping } from "./api";
import { t } from "./strings";

/** How often, at most, "typing" is sent while the member types (the widget hides it after 6 s without one). */
const TYPING_EVERY_MS = 3000;

/**
 * The member's typing, told to the visitor: `input(text)` on each change of the reply box sends
 * `true` at most every 3 s while it holds text; `stop()` (sent, left the box, emptied it) sends
 * `false` once. Leaving the conversation stops too.
 */
export function useTypingSignal(conversationId: string) {
  const state = useRef({ at: 0, typing: false });
  const stop = () => {
    if (!state.current.typing) return;
    state.current = { at: 0, typing: false };
    void sendTyping(conversationId, false);
  };
  useEffect(() => stop, [conversationId]);
  const input = (text: string) => {
    if (!text.trim()) return stop();
    if (Date.now() - state.current.at < TYPING_EVERY_MS) return;
    state.current = { at: Date.now(), typing: true };
    void sendTyping(conversationId, true);
  };
  return { input, stop };
}

/** "Ada is typing…": a polite live region under the transcript, empty when no one types. */
export function TypingLine({ name }: { name: string | null }) {
  return (
    <p class="inbox-typing muted small" role="status" aria-live="polite">
      {name ? t("typing", { name }) : ""}
    </p>
  );
}

/** The visitor's satisfaction rating: stars (with the number for screen readers) and their comment. */
export function CsatView({ csat }: { csat: NonNullable<Conversation["csat"]> }) {
  return (
    <section class="inbox-csat" aria-labelledby="inbox-csat-title">
      <h3 id="inbox-csat-title">{t("csat")}</h3>
      <p>
        <span class="inbox-stars" aria-hidden="true">
          {"★".repeat(csat.rating)}
          <span class="inbox-stars-off">{"★".repeat(5 - csat.rating)}</span>
        </span>{" "}
        <span>{t("csatRating", { n: csat.rating })}</span>
      </p>
      {csat.comment ? <blockquote class="inbox-csat-comment">{csat.comment}</blockquote> : null}
    </section>
  );
}
