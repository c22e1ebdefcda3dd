// The launcher's count of replies the visitor has not seen: a person's answer, or the assistant's, shown while the
// chat was closed (or the page in the background), kept over the site's pages and tabs by the newest reply seen.
import { h } from "./dom";
import { t } from "./i18n";
import type { Widget } from "./main";

/** The sequences of the replies shown whole (a person's or the assistant's; not the greeting, not one streaming). */
const replies = (w: Widget) =>
  [...w.log.querySelectorAll<HTMLElement>(".row.agent[data-seq][data-done], .row.assistant[data-seq][data-done]")].map(
    (row) => Number(row.dataset.seq),
  );

/** Whether the visitor can see the log now: the panel open, the page in front. */
const looking = (w: Widget) => !w.panel.hidden && document.visibilityState === "visible";

/**
 * Counts on the launcher the replies shown after the newest the visitor has seen, and says so in its name. Every reply
 * shown while the visitor looks is seen. A conversation first shown on a page with nothing seen kept for it, as one
 * from before this count was kept, starts with what it shows seen; one begun since (its first message sent in the
 * background, by another tab of the visitor, or here) counts every reply.
 */
export function followUnread(w: Widget) {
  const launcher = w.launcher;
  if (!launcher) return; // the full-page chat has no launcher: its log is always in view
  const badge = h("span", { class: "unread", "aria-hidden": "true", hidden: true });
  launcher.append(badge);
  const name = launcher.getAttribute("aria-label") ?? "";
  let shown = 0;
  // The conversation the page loaded with: the one that may be from before the count was kept.
  let loaded = w.storage.stored.conversationId ?? null;
  const update = () => {
    const id = w.conversationId;
    const sequences = replies(w);
    const kept = w.storage.seen;
    const before = id && kept?.conversationId === id ? kept.sequence : null;
    let seen = before;
    if (seen === null && id && id === loaded) seen = Math.max(0, ...sequences);
    if (id && looking(w)) seen = Math.max(seen ?? 0, ...sequences);
    if (id === loaded && sequences.length) loaded = null;
    if (id && seen !== null && seen !== before) w.storage.seen = { conversationId: id, sequence: seen };
    const count = id ? sequences.filter((s) => s > (seen ?? 0)).length : 0;
    if (count === shown) return;
    shown = count;
    badge.hidden = count === 0;
    badge.textContent = count > 9 ? "9+" : String(count);
    launcher.setAttribute("aria-label", count ? t("unread", { label: name, count }) : name);
    w.emit("unread", count);
  };
  new MutationObserver(update).observe(w.log, {
    childList: true,
    subtree: true,
    attributes: true,
    attributeFilter: ["data-seq", "data-done"],
  });
  w.on("open", update);
  document.addEventListener("visibilitychange", update);
  // Seen in another tab: counted again here.
  addEventListener("storage", (e) => w.storage.isSeen(e.key) && update());
  update();
}
