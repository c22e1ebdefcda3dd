// Unread counts and notifications on every page of the console: the shell listens to the tab's one
// live stream (live-stream.ts), keeps the unread conversations per inbox (`unread-conversations/`, read
// again after events), shows their total in the navigation and the tab's
// title, and, when the member opted in, raises a browser notification and a short sound when a
// conversation is handed to a person or assigned to them.
import { computed, effect, signal } from "@preact/signals";
import { api, otherwise, unwrap } from "../api/client";
import type { LiveEvent } from "../pages/conversations/live";
import { listenLive } from "./live-stream";
import { navigate } from "./router";
import { can, session } from "./session";
import { t } from "./notify-strings";

export interface InboxUnread {
  id: string;
  name: string;
  count: number;
}

/** Inboxes with unread conversations, as the API last counted them. */
export const unreadInboxes = signal<InboxUnread[]>([]);
/** Conversations with unread messages, in every inbox. */
export const totalUnread = computed(() => unreadInboxes.value.reduce((n, i) => n + i.count, 0));

/** The page's own title, without the unread count the tab shows before it. */
const pageTitle = signal(document.title);
/** Sets the document's title (PageHeader): the page's, after the unread count. */
export const setPageTitle = (title: string) => (pageTitle.value = title);
effect(() => {
  document.title = totalUnread.value ? `(${totalUnread.value}) ${pageTitle.value}` : pageTitle.value;
});

/** Numbers the counts: one answered after a later one's (a slow answer on a busy network) is older, and dropped. */
let counts = 0;
/** Counted with `conversation.view` alone (not the inbox list's `inbox.view`): an agent sees what waits for them. */
async function countUnread(organizationPk: string) {
  const mine = ++counts;
  const unread = await unwrap(
    api.GET("/api/v1/organizations/{organizationPk}/unread-conversations/", { params: { path: { organizationPk } } }),
  );
  if (mine !== counts) return;
  unreadInboxes.value = unread.inboxes;
}

/** Counts again once events stop coming for a moment (a reply streams several). */
let recount: ReturnType<typeof setTimeout> | undefined;
function countSoon(organizationPk: string) {
  clearTimeout(recount);
  // Counts are a convenience: a failed count is retried by the next event or reconnection.
  recount = setTimeout(() => void countUnread(organizationPk).catch(otherwise(undefined)), 300);
}

// ---- notifications ------------------------------------------------------------------------

const NOTIFY_KEY = "console.notify";
/** The member's choice, remembered by the browser; effective only while the browser allows notifications. */
export const notifyChosen = signal(localStorage.getItem(NOTIFY_KEY) === "on");
export const notifySupported = typeof Notification !== "undefined";
export const notifyPermission = signal<NotificationPermission>(notifySupported ? Notification.permission : "denied");

let audio: AudioContext | null = null;

/** Turns notifications on (asking the browser's permission: call from a click only) or off. */
export async function chooseNotify(on: boolean) {
  if (on && notifySupported) {
    // Made within the click, so the browser lets it play later.
    audio ??= new AudioContext();
    notifyPermission.value =
      Notification.permission === "default" ? await Notification.requestPermission() : Notification.permission;
  }
  const effective = on && notifyPermission.value === "granted";
  notifyChosen.value = effective;
  localStorage.setItem(NOTIFY_KEY, effective ? "on" : "off");
}

/** A short two-tone chime, made by WebAudio (no sound file to download). */
function chime() {
  audio ??= new AudioContext();
  // Suspended until the page has had a click since it loaded: it plays once resumed.
  void audio.resume();
  const start = audio.currentTime;
  for (const [i, frequency] of [880, 1320].entries()) {
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, start + i * 0.12);
    gain.gain.exponentialRampToValueAtTime(0.2, start + i * 0.12 + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + i * 0.12 + 0.18);
    tone.connect(gain).connect(audio.destination);
    tone.start(start + i * 0.12);
    tone.stop(start + i * 0.12 + 0.2);
  }
}

/**
 * What an event asks the member's attention for: a conversation handed to a person (now waiting),
 * or one assigned to them by someone else (a take-over is one's own doing: nothing then).
 */
export function attentionOf(e: LiveEvent, userId: string): "waiting" | "assigned" | null {
  if (e.type !== "conversation.updated" || !e.changes) return null;
  if (e.changes.progressStatus?.[1] === "waiting_for_human") return "waiting";
  const tookOver = e.reason === "operator" && e.changes.progressStatus?.[1] === "human_serving";
  if (e.changes.assignee?.[1] === userId && !tookOver) return "assigned";
  return null;
}

function notify(e: LiveEvent, userId: string) {
  const why = attentionOf(e, userId);
  if (!why || !notifyChosen.value || Notification.permission !== "granted") return;
  const c = e.conversation;
  const shown = new Notification(t(why === "waiting" ? "waitingTitle" : "assignedTitle"), {
    body: c.title || c.lastMessage || t("untitled"),
    tag: `conversation-${c.id}`,
  });
  shown.onclick = () => {
    window.focus();
    navigate(`/conversations/${c.id}`);
    shown.close();
  };
  chime();
}

// ---- the shell's listener -------------------------------------------------------------------

/** Listens while the member may see conversations; returns the function that stops. */
export function watchConversations(organizationId: string): () => void {
  unreadInboxes.value = [];
  if (!can("conversation.view")) return () => {};
  const userId = session.value!.user.id;
  const stop = listenLive(organizationId, {
    onEvent: (e) => {
      if (e.type !== "message.created" || e.message.senderType === "contact") countSoon(organizationId);
      if (notifySupported) notify(e, userId);
    },
    onGap: () => countSoon(organizationId),
    onState: () => {},
    onEnded: () => {},
  });
  countSoon(organizationId);
  return () => {
    clearTimeout(recount);
    stop();
  };
}
