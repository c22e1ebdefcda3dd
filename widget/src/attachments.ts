// Files sent with a message (enableFileUpload): each picked file uploads at once and shows as a
// chip above the composer until it is sent or removed.
import { ApiError, expected } from "./api";
import { h, icon } from "./dom";
import { t } from "./i18n";
import type { Widget } from "./main";
import { uploadProblem } from "./refusals";
import { ensureSession } from "./session";

/** A file picked for the next message: its upload starts at once; `key` settles when it is stored. */
export interface PendingFile {
  name: string;
  key: Promise<string>;
  chip: HTMLElement;
  /** The key once stored: what the tab keeps of it if the visitor leaves the page before sending (keepFiles). */
  stored?: string;
}

/** The composer's hidden file input and the button that opens it. */
export function filePicker(w: Widget): [HTMLInputElement, HTMLElement] {
  const input = h("input", {
    type: "file",
    multiple: true,
    hidden: true,
    tabindex: "-1",
    "aria-hidden": "true",
    onchange: () => {
      attach(w, [...(input.files ?? [])]);
      input.value = "";
    },
  }) as HTMLInputElement;
  const button = h(
    "button",
    {
      class: "mic clip",
      type: "button",
      "aria-label": t("attach"),
      title: t("attach"),
      onclick: () => input.click(),
    },
    icon("clip"),
  );
  return [input, button];
}

/** How many files the widget sends with one message. */
const MAX_FILES = 10;

/** Picked files: each uploads at once and shows as a chip until sent or removed (at most MAX_FILES). */
export function attach(w: Widget, picked: File[]) {
  const room = Math.max(0, MAX_FILES - w.files.length);
  // Those past the tenth are not taken, and the visitor is told which.
  if (picked.length > room)
    w.error(
      t("tooManyFiles", {
        names: picked
          .slice(room)
          .map((f) => f.name)
          .join(", "),
      }),
    );
  for (const file of picked.slice(0, room))
    addFile(
      w,
      file.name,
      ensureSession(w).then((ok) =>
        ok ? w.api.upload(file) : Promise.reject(new ApiError(401, "no_session", "No session.")),
      ),
    );
}

/**
 * The files this tab had uploaded for a message it did not send (the site's last page, a reload): shown again, ready.
 * A web chat that no longer takes files drops them, as it has no button to send them with.
 */
export function restoreFiles(w: Widget) {
  const kept = w.storage.draftFiles;
  if (!w.config.enableFileUpload) {
    if (kept.length) w.storage.draftFiles = [];
    return;
  }
  for (const { name, key } of kept.slice(0, MAX_FILES)) addFile(w, name, Promise.resolve(key), key);
}

/** Keeps the composer's uploaded files for the tab (restoreFiles), as its words are kept. */
export function keepFiles(w: Widget) {
  if (w.preview) return;
  w.storage.draftFiles = w.files.flatMap((f) => (f.stored ? [{ name: f.name, key: f.stored }] : []));
}

/** A file of the next message, as a chip: uploading until `key` settles (`stored`: uploaded already). */
function addFile(w: Widget, name: string, key: Promise<string>, stored?: string) {
  const state = h("span", { class: "st", text: stored ? "" : t("uploading") });
  const remove = h(
    "button",
    { class: "x", type: "button", "aria-label": t("removeNamed", { name }), title: t("remove") },
    icon("close"),
  );
  const chip = h(
    "div",
    { class: "file", role: "listitem" },
    icon("clip"),
    h("span", { class: "fn", text: name, title: name }),
    state,
    remove,
  );
  const item: PendingFile = { name, key, chip, stored };
  if (!stored)
    key.then(
      (storedKey) => {
        state.textContent = "";
        w.status.textContent = t("fileReady", { name });
        item.stored = storedKey;
        if (w.files.includes(item)) keepFiles(w);
      },
      (err) => {
        if (!expected(err)) throw err;
        chip.classList.add("bad");
        const problem = err instanceof ApiError ? uploadProblem(err) : null;
        state.textContent = problem ?? t(err instanceof ApiError && err.status === 400 ? "notAllowed" : "uploadFailed");
        // The API's own words (which types are allowed, say) stay at hand, in English.
        chip.title = err instanceof Error ? err.message : "";
        w.status.textContent = t("fileFailed", { name, reason: state.textContent });
      },
    );
  remove.addEventListener("click", () => {
    w.files = w.files.filter((f) => f !== item);
    keepFiles(w);
    chip.remove();
    w.status.textContent = t("fileRemoved", { name });
    w.input.focus();
  });
  w.files.push(item);
  w.fileBox.append(chip);
}
