// Sending the visitor's message and streaming the reply into the log: files and metadata made
// ready first, a message the server did not take marked "Not sent" with a Retry (same key).
import {
  ApiError,
  expected,
  unlessExpected,
  type Attachment,
  type Message,
  type Metadata,
  newKey,
  type Outgoing,
} from "./api";
import { keepFiles } from "./attachments";
import { h } from "./dom";
import { t } from "./i18n";
import type { Widget } from "./main";
import { addMessage, draft, nameOf, rowOf } from "./messages";
import { ensureSession, leftUnsent, preChat, sessionLapsed, startSession, type Outbox } from "./session";
import { NetworkError, StreamEnded } from "./sse";
import { releaseHeld, watch } from "./live-view";
import { type Reason, retryMayMend, say, unsentReason } from "./refusals";
import { withdrawRating } from "./rating";

/** The visitor's position (enableLocation), if they allow it within 3 s; else nothing. */
async function position(w: Widget): Promise<Pick<Metadata, "location">> {
  if (!w.config.enableLocation || !navigator.geolocation) return {};
  return new Promise((resolve) =>
    navigator.geolocation.getCurrentPosition(
      (p) => resolve({ location: { latitude: p.coords.latitude, longitude: p.coords.longitude } }),
      () => resolve({}),
      { timeout: 3000, maximumAge: 600_000 },
    ),
  );
}

export async function send(w: Widget, text: string) {
  const content = text.trim();
  // The files this message takes: the composer's now (one picked while it waits is the next message's).
  const pending = [...w.files];
  if ((!content && !pending.length) || w.preparing) return;
  if (!w.config.isActive) return;
  if (w.preview) return w.error(t("preview"));
  // Until the message is shown, a second Enter must not send the same text and files again.
  w.preparing = true;
  let attachments: Attachment[];
  let metadata: Metadata;
  try {
    // The pre-chat form stands in the way: the message waits for it, and the visitor is told why. Any other want of a
    // session (offline, a failed request) is the send's to meet: the message shows, "Not sent" with a Retry.
    if (!(await ensureSession(w)) && w.log.querySelector(".prechat")) {
      if (content) {
        w.waiting = content;
        preChat(w, t("preChatFirst"));
      }
      return;
    }
    attachments = await Promise.all(pending.map(async (f) => ({ file: await f.key, filename: f.name })));
    metadata = {
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      pageUrl: location.href.slice(0, 2000),
      ...(await position(w)),
    };
  } catch (err) {
    if (!expected(err)) throw err;
    return w.error(t("fileNotUploaded"));
  } finally {
    w.preparing = false;
  }
  // Only what the message takes leaves the composer: text written and files picked while it waited (its files'
  // uploads, the session) stay for the next message.
  w.files = w.files.filter((f) => !pending.includes(f));
  keepFiles(w);
  for (const f of pending) f.chip.remove();
  if (w.input.value.trim() === content) {
    w.input.value = "";
    w.storage.draft = "";
    w.fitInput(); // one line again
  }
  w.typingSignal.stop(w.conversationId);
  w.chips.replaceChildren();
  // Writing on reopens a resolved conversation: its rating is no longer asked.
  withdrawRating(w);
  enqueue(w, { content, metadata, attachments, key: newKey() });
  w.emit("message", { role: "visitor", content, attachments });
  saveOutbox(w);
  // Written after a message that was not sent: that one is sent again first, so the visitor's order holds.
  resume(w);
  await next(w);
}

/**
 * Keeps the visitor's messages the server has not taken yet (those refused for good, the one being sent until its first
 * event, the queued ones) with the session, so a reload shows or sends them rather than losing them (docs/decisions.md,
 * "The outbox").
 */
export function saveOutbox(w: Widget, closing = false) {
  const messages = [
    ...w.refused.map((r) => ({ ...r.outgoing, refused: r.reason })),
    ...(w.sending ? [{ ...w.sending.outgoing, inFlight: true, after: w.sendingAfter }] : []),
    ...w.queued.map((q) => q.outgoing),
  ];
  w.storage.storeOutbox(messages.length ? { conversationId: w.conversationId, messages } : null, closing);
}

/** How long after another tab closed with messages unsent this one waits before taking them: a reload takes its own. */
export const ADOPT_AFTER_MS = 3000;

/**
 * Messages a tab closed without sending (see VisitorStorage.outboxes), taken by this one once it has nothing of its
 * own under way: shown and sent as if written here, each with its own Idempotency-Key (stored once, whichever tab
 * sends it).
 */
export async function adoptOrphans(w: Widget) {
  // A page with no session yet (its chat not opened): one started now sends them (leftUnsent).
  if (!w.api.token && !w.lapsed && !w.sessionReady && leftUnsent(w)) return void startSession(w);
  void sendElsewhere(w);
  if (!w.api.token || w.busy || w.sending || w.queued.length || !w.storage.orphaned(w.conversationId)) return;
  const conversationId = w.conversationId;
  let history: Message[] = [];
  try {
    if (conversationId) history = (await w.api.history(conversationId)).results;
  } catch (err) {
    if (expected(err) && mendable(w, err)) orphansLater(w);
    throw err;
  }
  if (w.conversationId === conversationId) restoreOutbox(w, history);
}

/** How often a page looks for outboxes closed tabs left (`orphansLeft`), whatever the `storage` events said. */
export const ORPHANS_CHECK_MS = 5000;

/**
 * Outboxes tabs closed at least `ADOPT_AFTER_MS` ago, or left by tabs gone without a word (`seeTabs` in session.ts):
 * taken (adoptOrphans). Looked for every `ORPHANS_CHECK_MS` and as the page comes to the front, not only on the
 * `storage` event the closing tab's write raises: a browser under load may deliver that late or not at all, and the
 * messages then waited for the visitor's next move (docs/decisions.md, "The outbox").
 */
export function orphansLeft(w: Widget, now = Date.now()): boolean {
  return (
    w.storage.orphaned(w.conversationId, now, ADOPT_AFTER_MS) ||
    w.storage.orphansElsewhere(w.conversationId, now, ADOPT_AFTER_MS).length > 0
  );
}

/**
 * Whether trying again may mend `err` (`retryMayMend`); a refused token (401) first lapses the session, so that the
 * next request renews it.
 */
function mendable(w: Widget, err: ApiError | NetworkError | StreamEnded): boolean {
  if (err instanceof ApiError && err.status === 401) sessionLapsed(w);
  return retryMayMend(err);
}

/**
 * Other tabs' messages were not taken for a reason a retry may mend (the network, the server busy, a session being
 * renewed): taken again by this page by itself, 1 s later, doubling with each failure in a row up to 30 s, or as soon
 * as the browser is back online. Before, they waited for the next `storage` event or idle moment, which a tab left
 * open with nothing to do never had (docs/decisions.md, "The outbox").
 */
function orphansLater(w: Widget) {
  // A refused token (401) is renewed first, as a send renews it. A failure is tried again later (see above).
  w.orphansRetry.later(() =>
    ensureSession(w)
      .then((ready) => (ready ? adoptOrphans(w) : undefined))
      .catch(unlessExpected),
  );
}

/**
 * Messages tabs closed without sending for another of the visitor's conversations than this page shows (the visitor
 * started a new one in another tab while they waited): sent from here, in the background, to the conversation they
 * were written in, where their replies are stored; in order, each with its own Idempotency-Key (stored once, whichever
 * tab sends it), but for those the conversation shows stored with their key (the server forgets a key after a day).
 * Each leaves storage once taken, so a page that closes meanwhile leaves the rest to the next. One refused for good
 * (the conversation not the visitor's since the site signed them in as another contact, its file gone), or refused
 * before its tab closed, is shown here as not sent (`unsentHere`); any other failure keeps it and the ones after it
 * for the next try, which comes by itself (`orphansLater`; docs/decisions.md, "The outbox").
 */
export async function sendElsewhere(w: Widget) {
  if (!w.api.token || w.sendingElsewhere) return;
  w.sendingElsewhere = true;
  let again = false;
  try {
    for (const { key, outbox, to } of w.storage.orphansElsewhere(w.conversationId)) {
      let stored: Set<string | null | undefined>;
      try {
        stored = new Set((await w.api.history(to)).results.map((m) => m.idempotencyKey));
      } catch (err) {
        if (!expected(err)) throw err;
        if ((again = mendable(w, err))) return;
        // Not the visitor's (any more): nothing can be sent there.
        for (const m of outbox.messages) unsentHere(w, m);
        w.storage.leaveOrphan(key, { ...outbox, messages: [] });
        continue;
      }
      const messages = outbox.messages.filter((m) => !stored.has(m.key));
      w.storage.leaveOrphan(key, { ...outbox, messages });
      while (messages.length) {
        const { inFlight: _, after: __, refused, ...outgoing } = messages[0];
        // Refused before its tab closed: shown, not sent again unless the visitor retries it.
        if (refused) unsentHere(w, messages[0]);
        else {
          try {
            await w.api.send(to, outgoing, () => {}, w.settings.sendTimeoutMs ?? 30_000);
          } catch (err) {
            if (!(err instanceof ApiError || err instanceof NetworkError || err instanceof StreamEnded)) throw err;
            if ((again = mendable(w, err))) return;
            unsentHere(w, messages[0]);
          }
        }
        messages.shift();
        w.storage.leaveOrphan(key, { ...outbox, messages });
      }
    }
  } finally {
    w.sendingElsewhere = false;
    if (again) orphansLater(w);
    else w.orphansRetry.done();
  }
}

/**
 * After a reload, once the conversation is shown (`history`), the messages the last page had not had taken (and those
 * of tabs closed with messages unsent) are shown again and sent, in order, with their own Idempotency-Keys: one the
 * server took after all is stored once. One the history shows stored with its key was taken: it is not shown twice.
 * One refused for good is shown as not sent, with its reason, and waits for the visitor's Retry or Remove.
 * A message stored without a key (by an earlier server) is known by its text, for the one in flight at the reload
 * only, stored after the newest message shown as it left. (Its text alone does not tell: "Yes" answered twice is two
 * messages.)
 */
export function restoreOutbox(w: Widget, history: Message[]) {
  if (w.sending) return;
  const kept = w.storage.outboxes(w.conversationId);
  if (!kept.length) return;
  const stored = new Set(history.map((m) => m.idempotencyKey));
  // A message stored without its key (by a server before keys were kept) is known by its words alone.
  const keyless = history.filter((m) => m.role === "visitor" && !m.idempotencyKey);
  const latest = [...history].reverse().find((m) => m.role === "visitor");
  const takenByWords = (m: Outbox["messages"][number]) =>
    m.after === undefined
      ? !latest?.idempotencyKey && latest?.content === m.content
      : keyless.some((h) => h.content === m.content && h.sequence > (m.after ?? 0));
  // This page's own refused and queued messages are in its outbox too, and shown already.
  const shown = new Set([...w.refused, ...w.queued].map((r) => r.outgoing.key));
  const messages = kept.flatMap((outbox) =>
    outbox.messages.filter(
      (m, i) => !(stored.has(m.key) || shown.has(m.key) || (i === 0 && m.inFlight && takenByWords(m))),
    ),
  );
  // Written on this page before it could connect (held with their Retry): written after these, so sent after them.
  const later = messages.length ? w.queued.splice(0) : [];
  for (const { inFlight, after, refused, ...outgoing } of messages) {
    const row = refused ? showUnsent(w, outgoing, refused) : enqueue(w, outgoing);
    // In flight as the page left: the live stream may yet show it stored.
    if (inFlight && !refused) w.attempted.set(row, after ?? 0);
    later[0]?.row.before(row);
  }
  if (later.length) {
    // Their hold was the want of a session, which the page now has: they go on, in the order written.
    w.queued.push(...later);
    resume(w);
  }
  saveOutbox(w);
  void next(w);
}

/**
 * A message written in another of the visitor's conversations that refused it for good (sendElsewhere): shown here as
 * not sent, with a Retry that sends it in this conversation under a new key (its own stays with the refusal there).
 */
function unsentHere(w: Widget, { inFlight: _, after: __, refused, ...outgoing }: Outbox["messages"][number]) {
  showUnsent(w, { ...outgoing, key: newKey() }, refused ?? { key: "notSentEarlier" });
}

/** A message refused for good before this page: shown as not sent, with why. */
function showUnsent(w: Widget, outgoing: Outgoing, why: Reason): HTMLElement {
  const row = visitorRow(w, outgoing);
  w.sent.set(row, outgoing);
  markUnsent(w, { outgoing, row }, why, false);
  return row;
}

/** Shows the visitor's message at once and queues it to be sent. */
function enqueue(w: Widget, outgoing: Outgoing) {
  const row = visitorRow(w, outgoing);
  w.sent.set(row, outgoing);
  w.queued.push({ outgoing, row });
  return row;
}

function visitorRow(w: Widget, { content, attachments }: Outgoing): HTMLElement {
  return addMessage(
    w,
    draft({
      role: "visitor",
      content,
      createdAt: String(Date.now()),
      attachments: attachments.map((a) => ({ filename: a.filename, type: "other" })),
    }),
  ).row;
}

type Queued = Widget["queued"][number];

/**
 * Sends the first of the visitor's queued messages, unless a reply is under way or a message that was not sent holds
 * the queue: messages reach the conversation one at a time, in the order written (docs/decisions.md, "A message while
 * a reply streams").
 */
function next(w: Widget): Promise<void> | undefined {
  if (w.busy || w.stalled) return;
  const first = w.queued.shift();
  // Nothing of its own: other tabs' messages; failing (the network, the API), the next idle moment tries again.
  if (!first) return adoptOrphans(w).catch(unlessExpected);
  return deliver(w, first);
}

/** The queue goes on, its failed first message sent again (the visitor's Retry, or a message written after it). */
function resume(w: Widget) {
  if (!w.stalled) return;
  w.stalled = false;
  for (const { row } of w.queued) clearNote(row);
}

/**
 * A message of the visitor's still queued, or kept as refused, that the live stream shows stored: a send whose answer
 * was lost, then refused (its session lapsed, or cut short on our side) or given up, was taken after all. It leaves
 * the queue, without its "Not sent", and the messages it held go on.
 */
export function taken(w: Widget, row: HTMLElement) {
  const refused = w.refused.findIndex((r) => r.row === row);
  if (refused >= 0) w.refused.splice(refused, 1);
  const at = w.queued.findIndex((q) => q.row === row);
  if (at < 0 && refused < 0) return;
  if (at >= 0) w.queued.splice(at, 1);
  clearNote(row);
  if (at === 0) resume(w);
  saveOutbox(w);
  void next(w);
}

function clearNote(row: HTMLElement) {
  row.classList.remove("unsent");
  row.querySelector(".unsent-note")?.remove();
}

/**
 * Sends the visitor's message shown in `row` and shows the reply as it streams. A message the
 * server did not take (refused, no answer in time, offline) is marked "Not sent" with a Retry
 * button, which sends it again with the same Idempotency-Key: never stored twice.
 */
async function deliver(w: Widget, queued: Queued) {
  const { outgoing, row } = queued;
  w.busy = true;
  w.sending = queued;
  w.sendingAfter = Math.max(
    0,
    ...[...w.log.querySelectorAll<HTMLElement>(".row[data-seq]")].map((r) => Number(r.dataset.seq)),
  );
  // In flight from now: the server may take it before this page hears back, and a reload then must find it stored,
  // not send it again beside the stored one.
  saveOutbox(w);
  clearNote(row);
  if (!(await ensureSession(w))) {
    // No session to be had (offline, or the chat closed meanwhile): the message waits, with the others behind it.
    w.busy = false;
    w.sending = null;
    releaseHeld(w);
    return markUnsent(w, queued, { key: "notSentOffline" }, true);
  }
  w.attempted.set(row, w.sendingAfter);
  // While the reply is drawn, the log is busy: a screen reader does not read it again with every word, and the status
  // line says it once, whole (docs/decisions.md, "The widget's live stream").
  w.log.setAttribute("aria-busy", "true");
  // The message, then its reply, go where the conversation stores them: after what came while it waited (an answer,
  // a person's reply), the messages still queued after them. What a reload shows is what was shown.
  w.log.append(row);
  const reply = draft({ role: "assistant", content: "" });
  // The assistant's typing, unless a person serves: then their reply comes through the live stream.
  let shown = null as { row: HTMLElement; render: (m: Message, streaming: boolean) => void } | null;
  const show = () => {
    shown ??= addMessage(w, reply);
    return shown;
  };
  if (!w.humanServing) show().render(reply, true);
  for (const after of w.queued) w.log.append(after.row);
  let answered = false;
  // A conversation this send starts is watched once the send is over: until its first turn is stored
  // no route knows it, and the live stream would be refused (404) and stop (docs/decisions.md,
  // "Conversations and the Durable Object").
  let started: string | null = null;
  let newest: Message | null = null;
  // The visitor started a new conversation meanwhile: this one's reply ends unseen, and must not make it current again.
  const generation = w.generation;
  const left = () => w.generation !== generation;
  try {
    await w.api.send(
      w.conversationId,
      outgoing,
      (e) => {
        if (!answered && w.sending === queued) {
          // Taken: a reload no longer sends it.
          w.sending = null;
          saveOutbox(w);
        }
        answered = true;
        if (left()) return;
        if (!w.conversationId && e.conversationId) {
          w.conversationId = e.conversationId;
          w.storage.store({ conversationId: e.conversationId });
          started = e.conversationId;
        }
        // The message is taken but the assistant could not answer it (the team still sees it in the inbox).
        if (e.failed) {
          shown?.row.remove();
          return w.error(t("notAnswered"));
        }
        // No reply: a human agent serves the conversation (their answer comes through the live stream).
        if (e.done && !e.message && !reply.content) {
          w.humanServing = true;
          return shown?.row.remove();
        }
        // A reply the live stream has shown already (this send is a repeat, answered with the first one's reply):
        // that row is the reply's, and the placeholder goes.
        const known = e.messageId ? rowOf(w, e.messageId) : undefined;
        if (known && known !== shown?.row) {
          shown?.row.remove();
          shown = { row: known, render: (m, streaming) => w.rendered.get(known)?.(m, streaming) };
        }
        const { render, row: placeholder } = show();
        if (e.messageId) placeholder.dataset.id = e.messageId;
        if (e.done) {
          if (e.message) {
            Object.assign(reply, e.message);
            newest = e.message;
            w.live?.saw(e.message);
          }
          render(reply, false);
          w.status.textContent = reply.content
            ? t("said", { name: nameOf(w, reply), text: reply.content.slice(0, 300) })
            : "";
          if (e.message) w.emit("message", e.message);
        } else {
          reply.content += e.content;
          render(reply, true);
        }
      },
      w.settings.sendTimeoutMs ?? 30_000,
    );
  } catch (err) {
    if (!(err instanceof ApiError || err instanceof NetworkError || err instanceof StreamEnded)) throw err;
    if (left()) return;
    if (err instanceof ApiError && err.status === 401) sessionLapsed(w);
    if (!answered && err instanceof ApiError && err.code === "idempotency_key_reused") {
      // Its key went with another request: this very message, the first of a conversation, sent by a tab that closed
      // before it heard back, and taken here from that tab's outbox (VisitorStorage.outboxes). It is stored there.
      shown?.row.remove();
      w.attempted.delete(row);
      row.querySelector(".col")!.append(h("p", { class: "unsent-note elsewhere", text: t("sentFromOtherTab") }));
    } else if (!answered) {
      shown?.row.remove();
      // Refused for what it is: not stored, so no message the live stream shows is this one.
      if (!retryMayMend(err)) w.attempted.delete(row);
      markUnsent(w, queued, unsentReason(err), retryMayMend(err));
    } else {
      shown?.render(reply, false);
      w.error(err instanceof ApiError && err.status === 429 ? t("tooMany") : t("wentWrong"));
    }
  } finally {
    w.log.setAttribute("aria-busy", "false");
    // Answered by the assistant, the conversation it started was open to it: a person who took it over before the
    // stream opened is news then, not the state a page finds.
    const known = w.humanServing ? null : ({ status: "open", progressStatus: "ai_processing", agent: null } as const);
    if (started && w.conversationId === started) watch(w, started, newest, known);
    if (w.sending === queued) w.sending = null;
    if (!left()) saveOutbox(w);
    w.busy = false;
    releaseHeld(w);
    void next(w);
  }
}

/**
 * A visitor's message the server did not take: why, a Retry that sends it again (same key) before the messages queued
 * after it, and a Remove. A failure a retry may mend (`hold`: the connection, the time, the load) holds those messages,
 * each saying it waits, so none lands in the conversation before it; one a retry cannot mend lets them go on, and is
 * kept as refused (`Widget.refused`, in the outbox) until the visitor sends it again or removes it: a reload shows it
 * still, so the words are not lost without the visitor's say (docs/decisions.md, "The outbox").
 */
function markUnsent(w: Widget, queued: Queued, why: Reason, hold: boolean) {
  const { row } = queued;
  row.classList.add("unsent");
  const button = (text: string, act: () => void) =>
    h("button", {
      type: "button",
      text,
      onclick: () => {
        // The button goes with the note: focus goes back to where the visitor writes.
        w.input.focus();
        act();
      },
    });
  /** Out of the queue and of those kept as refused: what the visitor's Retry or Remove does first. */
  const withdraw = () => {
    const at = w.queued.indexOf(queued);
    if (at >= 0) w.queued.splice(at, 1);
    w.refused = w.refused.filter((r) => r.row !== row);
    clearNote(row);
    resume(w);
  };
  const sendAgain = () => {
    withdraw();
    w.queued.unshift(queued);
    void next(w);
  };
  const remove = () => {
    withdraw();
    row.remove();
    w.status.textContent = t("unsentRemoved");
    saveOutbox(w);
    void next(w);
  };
  const text = say(why);
  row
    .querySelector(".col")!
    .append(
      h(
        "p",
        { class: "unsent-note", role: "alert" },
        h("span", { text }),
        " ",
        button(t("retry"), sendAgain),
        " ",
        button(t("remove"), remove),
      ),
    );
  w.status.textContent = text;
  if (hold) {
    w.queued.unshift(queued);
    w.stalled = true;
    for (const { row: after } of w.queued.slice(1)) {
      clearNote(after);
      after.querySelector(".col")!.append(h("p", { class: "unsent-note waiting", text: t("waitingToSend") }));
    }
    // Not sent for want of a network: it goes again by itself once the browser is back online (the same key: never
    // stored twice), unless the visitor sent it again first.
    addEventListener("online", () => w.stalled && w.queued[0] === queued && sendAgain(), { once: true });
  } else w.refused.push({ ...queued, reason: why });
  saveOutbox(w);
  w.scroll();
}
