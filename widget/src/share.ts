// Sharing (enableShareConversation): a link to a read-only copy of the conversation, copied to the
// clipboard and shown in the log; the full page opened with `?share=` shows that copy.
import { expected } from "./api";
import { h } from "./dom";
import type { Widget } from "./main";
import { addMessage } from "./messages";

export async function share(w: Widget) {
  if (!w.conversationId) return w.error("Send a message first, then share the conversation.");
  try {
    const { url } = await w.api.share(w.conversationId);
    // Refused (no permission, not a secure page): the link shows below anyway.
    await navigator.clipboard?.writeText(url).catch((err) => {
      if (!(err instanceof DOMException)) throw err;
    });
    w.log.append(
      h(
        "p",
        { class: "notice", role: "status" },
        "Link copied: ",
        h("a", { href: url, target: "_blank", rel: "noopener", text: url }),
      ),
    );
    w.scroll();
  } catch (err) {
    if (!expected(err)) throw err;
    w.error("Could not create a share link.");
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
    w.notice("This shared conversation is not available.");
  }
}
