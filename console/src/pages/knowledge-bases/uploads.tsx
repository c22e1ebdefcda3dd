import { useState } from "preact/hooks";
import { announce } from "../../components";
import { problemOf } from "../../api/client";
import { t } from "./strings";
import { uploadToKnowledgeBase } from "./upload";

interface Upload {
  id: number;
  name: string;
  fraction: number;
  phase: "uploading" | "attaching" | "attached" | "failed";
  error?: string;
}

let nextId = 0;

/** The uploads of this visit: each file sent at once, its progress and outcome kept in view. */
export function useUploads(knowledgeBaseId: string, onAttached: () => void) {
  const [uploads, setUploads] = useState<Upload[]>([]);
  const update = (id: number, change: Partial<Upload>) =>
    setUploads((all) => all.map((u) => (u.id === id ? { ...u, ...change } : u)));
  const add = (files: FileList | File[]) => {
    for (const file of Array.from(files)) {
      const id = nextId++;
      setUploads((all) => [...all, { id, name: file.name, fraction: 0, phase: "uploading" }]);
      uploadToKnowledgeBase(knowledgeBaseId, file, (fraction) =>
        update(id, { fraction, phase: fraction < 1 ? "uploading" : "attaching" }),
      ).then(
        () => {
          update(id, { fraction: 1, phase: "attached" });
          announce(t("uploadedSay", { name: file.name }));
          onAttached();
        },
        (err) => {
          const { detail } = problemOf(err);
          update(id, { phase: "failed", error: detail });
          announce(t("uploadFailed", { detail: `${file.name}: ${detail}` }), true);
        },
      );
    }
  };
  return { uploads, add };
}

/** The drop zone (with a file input for the keyboard) and a progress bar per file. */
export function Uploads({ uploads, add }: ReturnType<typeof useUploads>) {
  const [over, setOver] = useState(false);
  return (
    <div class="kb-uploads">
      <div
        class={`kb-drop${over ? " over" : ""}`}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          if (e.dataTransfer?.files.length) add(e.dataTransfer.files);
        }}
      >
        <p>{t("dropHere")}</p>
        <label class="kb-file-input">
          <span class="sr-only">{t("chooseFiles")}</span>
          <input
            type="file"
            multiple
            onChange={(e) => {
              const input = e.currentTarget;
              if (input.files?.length) add(input.files);
              input.value = "";
            }}
          />
        </label>
        <p class="hint">{t("dropHint")}</p>
      </div>
      {uploads.length > 0 && (
        <ul class="kb-upload-list" aria-label={t("uploads")}>
          {uploads.map((u) => (
            <li key={u.id} class={`kb-upload ${u.phase}`}>
              <span class="kb-upload-name">{u.name}</span>
              <progress max={1} value={u.fraction} aria-label={t("uploadOf", { name: u.name })} />
              <span class="small">
                {u.phase === "uploading" && t("uploading", { percent: Math.round(u.fraction * 100) })}
                {u.phase === "attaching" && t("attaching")}
                {u.phase === "attached" && t("attached")}
                {u.phase === "failed" && (
                  <span class="status failed">{t("uploadFailed", { detail: u.error ?? "" })}</span>
                )}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
