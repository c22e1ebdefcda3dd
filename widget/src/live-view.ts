// What the conversation's live stream (live.ts) shows: a human agent's reply, a message written in
// another tab, a change of who serves the conversation, an agent typing.
import type { Message, StatusEvent } from "./api";
import { h } from "./dom";
import { t } from "./i18n";
import { LiveStream } from "./live";
import type { Widget } from "./main";
import { addMessage, nameOf, rowOf } from "./messages";
import { askRating, withdrawRating } from "./rating";
import { ensureSession, sessionLapsed } from "./session";
import { taken } from "./stream";

/** A change of who serves the conversation, in the visitor's words (null: nothing to say). */
function statusLine(s: StatusEvent, assistant: string): string | null {
  if (s.progressStatus === "human_serving") return s.agent ? t("joined", { name: s.agent.name }) : null;
  if (s.progressStatus === "waiting_for_human") return t("waitingForHuman");
  if (s.progressStatus === "ai_processing") return t("answeringAgain", { name: assistant });
  if (s.progressStatus === "resolved") return t("resolved");
  return null;
}

/**
 * Reads the conversation's live stream while it is the current one, from after `newest` (the
 * newest message shown): a human agent's reply shows at once, and what was stored while the
 * stream was down comes when it is back.
 */
export function watch(
  w: Widget,
  conversationId: string,
  newest: Pick<Message, "id" | "sequence"> | null,
  known: StatusEvent | null = null,
) {
  w.live?.stop();
  w.held = [];
  w.live = new LiveStream(
    w.api,
    conversationId,
    newest,
    {
      message: (m) => showLive(w, m),
      status: (s, news, loaded) => showStatus(w, s, news, loaded),
      typing: (t) => w.typingIndicator.show(t.typing, t.name),
      // This tab's own reply shows its own typing (see deliver); another's (a reply to a message sent before a reload
      // or in another tab) shows here until it arrives or fails.
      replying: (replying) =>
        replying && !w.busy
          ? w.typingIndicator.assistantReplying(w.config.assistantName ?? w.config.name)
          : w.typingIndicator.hideAssistant(),
      // Renewed, the stream goes on; not renewed for now (the network, the server busy), it goes on trying while the
      // page renews the session by itself (sessionLater): stopped, a person's replies showed only after a reload. A
      // session that cannot be had (the chat closed, the token refused for good) stops it.
      expired: async () => {
        sessionLapsed(w);
        return (await ensureSession(w)) || w.sessionRetry.failing;
      },
    },
    known,
  );
}

/**
 * A message of the live stream, shown once: a row already there (this tab's own message or reply)
 * is not shown again, and one still marked as streaming or failed is completed. While this tab is
 * sending, messages wait (held) until its reply is shown, so its own do not show twice.
 */
function showLive(w: Widget, m: Message) {
  if (m.conversation !== w.conversationId) return;
  const row = rowOf(w, m.id);
  if (row) return w.rendered.get(row)?.(m, false);
  if (w.busy && m.role !== "agent") return void w.held.push(m);
  if (claimed(w, m)) return;
  w.chips.replaceChildren();
  if (m.role === "agent") w.typingIndicator.hide();
  if (m.role === "assistant") w.typingIndicator.hideAssistant();
  const { row: added } = addMessage(w, m);
  // Above the first later message shown: one sent from another tab while this one's own waited in line comes before
  // it, as stored, not below its reply.
  const later = [...w.log.querySelectorAll<HTMLElement>(".row[data-seq]")].find(
    (r) => r !== added && Number(r.dataset.seq) > m.sequence,
  );
  later?.before(added);
  if (m.role !== "visitor") w.status.textContent = t("said", { name: nameOf(w, m), text: m.content.slice(0, 300) });
  w.emit("message", m);
}

/**
 * The visitor's own message, sent from this tab and not yet known by its id: its row takes the id and place. The
 * message names the Idempotency-Key its send gave: only the row sent with that key is it, so the same words sent from
 * another tab never take the place of one waiting here (queued, refused, or lost on the way). A message stored
 * without a key (by a server before keys were kept) is known by its words, and only a row whose send reached the
 * server, for a message stored after what was shown as it left, can be it.
 */
function claimed(w: Widget, m: Message): boolean {
  const mine =
    m.role === "visitor" &&
    [...w.log.querySelectorAll<HTMLElement>(".row.visitor:not([data-id])")].find((r) => {
      const sent = w.sent.get(r);
      if (!sent) return false;
      if (m.idempotencyKey) return m.idempotencyKey === sent.key;
      return sent.content === m.content && m.sequence > (w.attempted.get(r) ?? Number.POSITIVE_INFINITY);
    });
  if (!mine) return false;
  mine.dataset.id = m.id;
  mine.dataset.seq = String(m.sequence);
  taken(w, mine);
  return true;
}

/**
 * Messages held while sending (see showLive), now that the reply is shown: this tab's own first take their places,
 * so that another tab's, stored before them, go above them.
 */
export function releaseHeld(w: Widget) {
  const held = w.held;
  w.held = [];
  const others = held.filter((m) => m.conversation !== w.conversationId || rowOf(w, m.id) || !claimed(w, m));
  for (const m of others) showLive(w, m);
}

/**
 * Who serves the conversation (a send shows no assistant typing while a person does); a change, as a line. A
 * conversation shown waiting for a person, or resolved, says so at its end as it did live (`loaded`): the history
 * holds no such line, and a visitor back on the site could not tell that someone was coming, or that it was closed.
 * Who serves it shows in their replies: "joined" would read as news.
 */
function showStatus(w: Widget, s: StatusEvent, news: boolean, loaded = false) {
  w.humanServing = s.progressStatus === "human_serving" || s.progressStatus === "waiting_for_human";
  if (s.status !== "resolved") withdrawRating(w);
  const state = loaded && (s.progressStatus === "waiting_for_human" || s.progressStatus === "resolved");
  if (!news && !state) return;
  const text = statusLine(s, w.config.assistantName ?? w.config.name);
  if (!text) return;
  const line = h("p", { class: "event", role: "status", text });
  // Above the rating the page asked for as it showed a resolved conversation (connect).
  if (!news) return void w.log.insertBefore(line, w.log.querySelector(".rate"));
  w.log.append(line);
  w.typingIndicator.hide();
  if (s.status === "resolved") askRating(w);
  w.scroll();
  w.emit("status", s);
}
