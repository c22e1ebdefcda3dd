import { useTypingSignal } from "./human";
import type { Ref } from "preact";
import { useEffect, useId, useMemo, useRef, useState } from "preact/hooks";
import { isExpected, problemOf } from "../../api/client";
import { composing, sendsMessage } from "../../components/keys";
import { uploadSigned, ErrorAlert, announce, Button, UploadProgress } from "../../components";
import { session } from "../../shell/session";
import { listCannedResponses, type CannedResponse } from "../canned-responses/api";
import { fillVariables, slashQuery } from "./canned-slash";
import { reply, type Conversation, type Message } from "./api";
import { keepDraft, readDraft, type DraftFile, type DraftMode } from "./drafts";
import { t as inbox } from "./strings";
import { t } from "./notes-strings";

const SUGGESTIONS = 8;

/** A file the member chose for the message: uploading (`key` null, `share` of it sent), uploaded, or refused. */
interface Chosen {
  id: number;
  name: string;
  share: number;
  key: string | null;
  error: string | null;
}
let chosenSeq = 0;

/**
 * The files of the message being written: each uploaded as soon as it is chosen (signed for an `attachment`, as a
 * visitor's are), so sending waits only for what is still on its way.
 */
function useAttachments(kept: DraftFile[]) {
  // Those uploaded for the draft before the box was last drawn (a take-over, another conversation, a reload).
  const [files, setFiles] = useState<Chosen[]>(() =>
    kept.map((f) => ({ id: ++chosenSeq, name: f.filename, share: 1, key: f.file, error: null })),
  );
  const update = (id: number, change: Partial<Chosen>) =>
    setFiles((list) => list.map((f) => (f.id === id ? { ...f, ...change } : f)));
  const add = (picked: File[]) => {
    for (const file of picked) {
      const id = ++chosenSeq;
      setFiles((list) => [...list, { id, name: file.name, share: 0, key: null, error: null }]);
      uploadSigned(file, { modelName: "attachment", fieldName: "file" }, (share) => update(id, { share })).then(
        (key) => {
          update(id, { key });
          announce(t("attached", { name: file.name }));
        },
        (err) => {
          const detail = problemOf(err).detail;
          update(id, { error: detail });
          announce(t("attachFailed", { name: file.name, detail }));
        },
      );
    }
  };
  const ready = useMemo(() => files.flatMap((f) => (f.key ? [{ filename: f.name, file: f.key }] : [])), [files]);
  return {
    files,
    add,
    remove: (id: number) => setFiles((list) => list.filter((f) => f.id !== id)),
    clear: () => setFiles([]),
    uploading: files.some((f) => f.key === null && !f.error),
    ready,
  };
}

/**
 * The member's reply box: a reply to the visitor or a private note for the team (only notes while
 * the assistant serves), and `/` for canned responses, a listbox the textarea controls as a
 * combobox (arrow keys, Enter to insert, Escape to close). Enter sends, Shift+Enter adds a line.
 */
export function ReplyBox({
  conversation: c,
  areaRef,
  onSent,
}: {
  conversation: Conversation;
  areaRef: Ref<HTMLTextAreaElement>;
  onSent: (m: Message) => void;
}) {
  const canReply = !c.autoReplyEnabled;
  const userId = session.value?.user.id ?? "";
  // What the member had begun here (kept in the browser): a note stays a note after a take-over, never a reply.
  const [kept] = useState(() => readDraft(userId, c.id));
  const [mode, setMode] = useState<DraftMode>(canReply ? (kept?.mode ?? "reply") : "note");
  const note = mode === "note" || !canReply;
  const [draft, setDraft] = useState(kept?.text ?? "");
  const attachments = useAttachments(kept?.files ?? []);
  const ready = attachments.ready;
  // Kept when the member changes it, not when the box is drawn: drawing it writes nothing, so a draft another tab keeps
  // meanwhile is not overwritten by the empty one this box began with.
  const drawn = useRef(true);
  useEffect(() => {
    if (drawn.current) drawn.current = false;
    else keepDraft(userId, c.id, { text: draft, mode: note ? "note" : "reply", files: ready });
  }, [userId, c.id, draft, note, ready]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const area = useRef<HTMLTextAreaElement | null>(null);
  const id = useId();
  const canned = useCanned(draft, area);
  const picker = useRef<HTMLInputElement>(null);
  const empty = !draft.trim() && !attachments.ready.length;
  // The visitor sees "<name> is typing" for replies only: a note is the team's.
  const typingSignal = useTypingSignal(c.id);
  const send = async (e: Event) => {
    e.preventDefault();
    // Enter sends without the button, which is disabled for these.
    if (empty || attachments.uploading || busy) return;
    setBusy(true);
    setError(null);
    typingSignal.stop();
    try {
      onSent(await reply(c.id, draft.trim(), note, attachments.ready));
      setDraft("");
      attachments.clear();
      announce(note ? t("noteSaved") : inbox("sent"));
    } catch (err) {
      setError(problemOf(err));
    } finally {
      setBusy(false);
    }
    area.current?.focus();
  };
  const insert = (choice: CannedResponse) => {
    const el = area.current!;
    const at = slashQuery(draft, el.selectionStart ?? draft.length);
    if (!at) return;
    const text = fillVariables(choice.content, {
      "contact.name": c.contact?.name,
      "agent.name": session.value?.user.name,
    });
    const caret = el.selectionStart ?? draft.length;
    const next = draft.slice(0, at.start) + text + draft.slice(caret);
    setDraft(next);
    canned.close();
    announce(t("cannedInserted", { code: choice.shortCode }));
    requestAnimationFrame(() => el.setSelectionRange(at.start + text.length, at.start + text.length));
  };
  const onKeyDown = (e: KeyboardEvent) => {
    // Keys that pick an input method's candidate (Enter, the arrows) are the IME's.
    if (composing(e)) return;
    if (canned.open && (e.key === "ArrowDown" || e.key === "ArrowUp")) {
      e.preventDefault();
      canned.move(e.key === "ArrowDown" ? 1 : -1);
    } else if (canned.open && e.key === "Enter" && canned.active) {
      // The list open, Enter inserts the active response (Shift+Enter too: nothing is sent from an open list).
      e.preventDefault();
      insert(canned.active);
    } else if (canned.open && e.key === "Escape") {
      e.preventDefault();
      canned.close();
    } else if (sendsMessage(e)) {
      e.preventDefault();
      (e.currentTarget as HTMLTextAreaElement).form?.requestSubmit();
    }
  };
  const listId = `${id}-canned`;
  return (
    <form class={`inbox-reply${note ? " is-note" : ""}`} onSubmit={send}>
      <ErrorAlert error={error} />
      {/* Above the text, so that from the text Tab goes straight to Send. */}
      <div class="reply-tools">
        {canReply && (
          <fieldset class="reply-mode">
            <legend class="sr-only">{t("mode")}</legend>
            {(["reply", "note"] as const).map((m) => (
              <label key={m} class={mode === m ? "chosen" : undefined}>
                <input type="radio" name={`${id}-mode`} value={m} checked={mode === m} onChange={() => setMode(m)} />
                {t(m === "reply" ? "modeReply" : "modeNote")}
              </label>
            ))}
          </fieldset>
        )}
        <input
          ref={picker}
          type="file"
          multiple
          hidden
          onChange={(e) => {
            attachments.add([...(e.currentTarget.files ?? [])]);
            e.currentTarget.value = "";
          }}
        />
        <Button class="reply-attach" onClick={() => picker.current?.click()}>
          {t("attach")}
        </Button>
      </div>
      <label for={`${id}-text`}>{note ? t("note") : inbox("reply")}</label>
      <div class="reply-combo">
        <textarea
          ref={(el) => {
            area.current = el;
            if (typeof areaRef === "function") areaRef(el);
            else if (areaRef) areaRef.current = el;
          }}
          id={`${id}-text`}
          rows={3}
          maxLength={32000}
          value={draft}
          // The combobox of ARIA 1.2 (its listbox below); Preact's types allow a textarea only `textbox`.
          {...({ role: "combobox" } as unknown as { role?: "textbox" })}
          aria-autocomplete="list"
          aria-expanded={canned.open}
          aria-controls={listId}
          aria-activedescendant={canned.open && canned.active ? `${listId}-${canned.active.id}` : undefined}
          aria-describedby={`${id}-hint`}
          onInput={(e) => {
            setDraft(e.currentTarget.value);
            if (note) typingSignal.stop();
            else typingSignal.input(e.currentTarget.value);
          }}
          onKeyDown={onKeyDown}
          onBlur={() => {
            canned.close();
            typingSignal.stop();
          }}
        />
        <ul id={listId} role="listbox" aria-label={t("cannedList")} class="canned-options" hidden={!canned.open}>
          {canned.open &&
            canned.options.map((o) => (
              <li
                key={o.id}
                id={`${listId}-${o.id}`}
                role="option"
                aria-selected={o.id === canned.active?.id}
                // Chosen on mousedown, before the textarea's blur closes the list.
                onMouseDown={(e) => {
                  e.preventDefault();
                  insert(o);
                }}
              >
                <code>/{o.shortCode}</code> <span class="muted">{o.content.slice(0, 120)}</span>
              </li>
            ))}
        </ul>
      </div>
      <p class="hint" id={`${id}-hint`}>
        {note ? `${t("noteHint")} ${t("noteSendHint")}` : t("sendHint")} {t("cannedHint")}
      </p>
      <p class="sr-only" role="status">
        {canned.open ? t("cannedCount", { n: canned.options.length }) : ""}
      </p>
      {attachments.files.length > 0 && (
        <ul class="reply-files" aria-label={t("files")}>
          {attachments.files.map((f) => (
            <li key={f.id}>
              <span class="reply-file-name">{f.name}</span>
              <Button
                variant="quiet"
                aria-label={t("removeFile", { name: f.name })}
                onClick={() => {
                  attachments.remove(f.id);
                  area.current?.focus();
                }}
              >
                ×
              </Button>
              {f.key === null && !f.error && (
                <UploadProgress share={f.share} label={t("uploading", { name: f.name })} />
              )}
              {f.error && <span class="field-error">{f.error}</span>}
            </li>
          ))}
        </ul>
      )}
      <Button type="submit" variant="primary" busy={busy} disabled={empty || attachments.uploading}>
        {note ? t("addNote") : inbox("send")}
      </Button>
    </form>
  );
}

/** The canned responses matching the `/word` at the caret, read as it is typed; which one is active. */
function useCanned(draft: string, area: { current: HTMLTextAreaElement | null }) {
  const [options, setOptions] = useState<CannedResponse[]>([]);
  const [activeIndex, setActiveIndex] = useState(0);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const at = slashQuery(draft, area.current?.selectionStart ?? draft.length);
  const query = at?.query ?? null;
  useEffect(() => {
    if (query === null) return setOptions([]);
    let current = true;
    listCannedResponses(1, query, SUGGESTIONS).then(
      (page) => {
        if (!current) return;
        setOptions(page.results);
        setActiveIndex(0);
      },
      (err) => {
        // Suggestions are a help: refused or unreachable, the member types the reply.
        if (!isExpected(err)) throw err;
        if (current) setOptions([]);
      },
    );
    return () => void (current = false);
  }, [query]);
  const open = query !== null && dismissed !== draft && document.activeElement === area.current && options.length > 0;
  return {
    open,
    options,
    active: open ? options[activeIndex] : undefined,
    move: (by: number) => setActiveIndex((i) => (options.length ? (i + by + options.length) % options.length : 0)),
    close: () => setDismissed(draft),
  };
}
