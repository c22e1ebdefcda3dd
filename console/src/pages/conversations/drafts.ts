// What a member is writing in a conversation's reply box, kept in the browser per member and conversation: a reply
// or note begun, with the files uploaded for it, survives moving to another conversation, a take-over or hand-back
// (which draw the box anew) and a reload. Sending it, emptying the box, or signing out forgets it (docs/decisions.md,
// "Reply drafts").
import { signal } from "@preact/signals";

export type DraftMode = "reply" | "note";
/** A file uploaded for the message: its name and the key it is stored under (what sending attaches). */
export interface DraftFile {
  filename: string;
  file: string;
}
export interface Draft {
  text: string;
  mode: DraftMode;
  files: DraftFile[];
}

const PREFIX = "console.draft:";
/** A draft untouched this long is dropped when next read: the conversation has long moved on. */
const KEPT_MS = 30 * 24 * 60 * 60_000;

const keyOf = (userId: string, conversationId: string) => `${PREFIX}${userId}:${conversationId}`;

/** Counts the drafts begun or forgotten in this page: what shows which conversations have one reads it to follow. */
export const draftsChanged = signal(0);

/** A full or refused storage (private mode) keeps nothing: the draft then lasts as long as the box. */
function stored(write: () => void) {
  try {
    write();
  } catch (err) {
    if (!(err instanceof DOMException)) throw err;
  }
}

export function readDraft(userId: string, conversationId: string, now = Date.now()): Draft | null {
  const key = keyOf(userId, conversationId);
  let kept: (Draft & { at?: number }) | null = null;
  try {
    kept = JSON.parse(localStorage.getItem(key) ?? "null");
  } catch (err) {
    if (!(err instanceof SyntaxError || err instanceof DOMException)) throw err;
  }
  if (!kept || typeof kept.text !== "string" || (kept.mode !== "reply" && kept.mode !== "note")) return null;
  // Drafts kept before files were kept have none.
  const files = Array.isArray(kept.files)
    ? kept.files.filter((f) => typeof f?.filename === "string" && typeof f?.file === "string")
    : [];
  if (now - (kept.at ?? 0) > KEPT_MS) {
    stored(() => localStorage.removeItem(key));
    return null;
  }
  return { text: kept.text, mode: kept.mode, files };
}

/** Keeps the member's draft for the conversation; an empty one (no words, no file) is forgotten. */
export function keepDraft(userId: string, conversationId: string, draft: Draft) {
  const key = keyOf(userId, conversationId);
  const had = hasDraft(userId, conversationId);
  if (!draft.text.trim() && !draft.files.length) stored(() => localStorage.removeItem(key));
  else stored(() => localStorage.setItem(key, JSON.stringify({ ...draft, at: Date.now() })));
  if (had !== hasDraft(userId, conversationId)) draftsChanged.value++;
}

/** Whether the member has a draft kept for the conversation (the list's mark). */
export function hasDraft(userId: string, conversationId: string): boolean {
  try {
    return localStorage.getItem(keyOf(userId, conversationId)) !== null;
  } catch (err) {
    if (!(err instanceof DOMException)) throw err;
    return false;
  }
}

/** Forgets every draft the member kept in this browser (signing out: the next person here does not read them). */
export function forgetDrafts(userId: string) {
  const mine = `${PREFIX}${userId}:`;
  const keys = Array.from({ length: localStorage.length }, (_, i) => localStorage.key(i));
  for (const key of keys) if (key?.startsWith(mine)) stored(() => localStorage.removeItem(key));
}
