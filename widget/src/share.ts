// Sharing (enableShareConversation): a link to a read-only copy of the conversation, copied to the
// clipboard and shown in the log; the full page opened with `?share=` shows that copy.
import { expected } from "./api";
import { h } from "./dom";
import { t } from "./i18n";
import type { Widget } from "./main";
import { addMessage } from "./messages";

export async function share(w: Widget) {
  if (!w.conversationId) return w.error(t("shareFirst"));
  try {
    const { url } = await w.api.share(w.conversationId);
    // Refused (no permission, not a secure page): the link shows below anyway.
    await navigator.clipboard?.writeText(url).catch((err) => {
      if (!(err instanceof DOMException)) throw err;
    });
    w.log.append(
      h(
        "p",
        { class: "shared-link", role: "status" },
        t("linkCopied"),
        h("a", { href: url, target: "_blank", rel: "noopener", text: url }),
      ),
    );
    w.scroll();
  } catch (err) {
    if (!expected(err)) throw err;
    w.error(t("shareFailed"));
  }
}

/** A shared conversation, read-only (no composer, no feedback buttons). */
export async function showShared(w: Widget, token: string) {
  w.composer.hidden = true;
  w.chips.replaceChildren();
  try {
    const { results } = await w.api.shared(token);
    w.log.replaceChildren();
    for (const m of results) addMessage(w, m, true);
  } catch (err) {
    if (!expected(err)) throw err;
    w.notice(t("sharedGone"));
  }
}
