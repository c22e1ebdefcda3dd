// Live regions for what happens without a page change (saved, copied, failed): one polite region
// for status, one assertive for errors, shown to screen readers only. Rendered once by the shell.
import { signal } from "@preact/signals";

const polite = signal("");
const assertive = signal("");

/** Says `text` to screen-reader users; `urgent` interrupts them (errors). */
export function announce(text: string, urgent = false) {
  const region = urgent ? assertive : polite;
  // Cleared first, so the same message twice is read twice.
  region.value = "";
  requestAnimationFrame(() => (region.value = text));
}

export function Announcer() {
  return (
    <>
      <div class="sr-only" role="status" aria-live="polite" aria-atomic="true">
        {polite}
      </div>
      <div class="sr-only" role="alert" aria-live="assertive" aria-atomic="true">
        {assertive}
      </div>
    </>
  );
}
