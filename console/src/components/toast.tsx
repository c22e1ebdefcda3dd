// What a person sees after an action that leaves them where they were (saved, deleted, revoked):
// a small note in the corner that they can close. Screen readers hear its text once, through the
// announcer's live region (so a test or a reader never meets two live regions saying the same), and
// the focus stays where it was. A success goes after a while (not while the pointer or the focus is
// on it, WCAG 2.2.1); an error stays until it is closed.
import { signal } from "@preact/signals";
import { announce } from "./announcer";
import { t } from "./strings";

type Tone = "success" | "error";
interface Toast {
  id: number;
  text: string;
  tone: Tone;
}

/** The notes shown now, oldest first. */
export const toasts = signal<Toast[]>([]);
const SHOWN_MS = 6000;
const MOST = 4;
let next = 1;
const timers = new Map<number, ReturnType<typeof setTimeout>>();

export function dismissToast(id: number) {
  clearTimeout(timers.get(id));
  timers.delete(id);
  toasts.value = toasts.value.filter((n) => n.id !== id);
}

function later(id: number) {
  clearTimeout(timers.get(id));
  timers.set(
    id,
    setTimeout(() => dismissToast(id), SHOWN_MS),
  );
}

/** Shows `text` as a toast and says it to screen-reader users (an error interrupts them). */
export function toast(text: string, tone: Tone = "success") {
  const id = next++;
  // The oldest make way: a burst of saves must not cover the page.
  for (const old of toasts.value.slice(0, Math.max(0, toasts.value.length - MOST + 1))) dismissToast(old.id);
  toasts.value = [...toasts.value, { id, text, tone }];
  if (tone === "success") later(id);
  announce(text, tone === "error");
}

/** The toasts, rendered once by the shell (and the sign-in page's App). */
export function Toasts() {
  const shown = toasts.value;
  if (!shown.length) return null;
  return (
    <section class="toasts" aria-label={t("notifications")}>
      {shown.map((n) => (
        <div
          key={n.id}
          class={`toast ${n.tone}`}
          onMouseEnter={() => clearTimeout(timers.get(n.id))}
          onMouseLeave={() => n.tone === "success" && later(n.id)}
          onFocusIn={() => clearTimeout(timers.get(n.id))}
          onFocusOut={() => n.tone === "success" && later(n.id)}
        >
          <span class="toast-mark" aria-hidden="true">
            {n.tone === "success" ? "✓" : "!"}
          </span>
          <p>{n.text}</p>
          {/* Named without the note's text: "Dismiss: Ava deleted." would also answer a voice command (or a
              test) asking for the page's "Delete" button. */}
          <button
            type="button"
            class="btn quiet icon"
            aria-label={t("dismiss")}
            title={t("dismiss")}
            onClick={() => dismissToast(n.id)}
          >
            <span aria-hidden="true">×</span>
          </button>
        </div>
      ))}
    </section>
  );
}
