import { useEffect, useRef } from "preact/hooks";
import { Button, ResourceList, announce, toast, useCrudList, type Column } from "../../components";
import { formatBytes, formatTime } from "../../i18n";
import { problemOf } from "../../api/client";
import { deleteFile, listFiles, PAGE_SIZE, reparseFile, type KnowledgeBase, type KnowledgeBaseFile } from "./api";
import { t } from "./strings";
import { Uploads, useUploads } from "./uploads";

/** How often the list is read again while a file is queued or processing. */
const POLL_MS = 1000;
const pending = (f: KnowledgeBaseFile) => f.status === "initial" || f.status === "processing";
export const failureReason = (f: KnowledgeBaseFile) => String(f.processingTimeDetails.error ?? "");

/** The base's files: drop or choose several to upload, each with its progress, then their ingestion, live. */
export function FilesSection({ kb, editable }: { kb: KnowledgeBase; editable: boolean }) {
  const crud = useCrudList((page) => listFiles(kb.id, page), [kb.id]);
  const files = crud.list;
  const uploads = useUploads(kb.id, () => files.reload());
  const seen = useRef(new Map<string, KnowledgeBaseFile["status"]>());

  // Poll while anything is on its way, and say when a file the user watched is done or failed.
  useEffect(() => {
    const rows = files.data?.results ?? [];
    for (const f of rows) {
      const before = seen.current.get(f.id);
      if (before && pending({ status: before } as KnowledgeBaseFile) && !pending(f))
        announce(
          f.status === "done"
            ? t("fileDoneSay", { name: f.filename })
            : t("fileFailedSay", { name: f.filename, reason: failureReason(f) }),
          f.status === "failed",
        );
      seen.current.set(f.id, f.status);
    }
    if (!rows.some(pending)) return;
    const timer = setTimeout(() => files.reload(), POLL_MS);
    return () => clearTimeout(timer);
  }, [files.data]);

  const columns: Column<KnowledgeBaseFile>[] = [
    { label: t("filename"), rowHeader: true, class: "wrap", cell: (f) => f.filename },
    { label: t("size"), class: "nowrap", cell: (f) => formatBytes(f.size) },
    { label: t("status"), cell: (f) => <FileStatus file={f} /> },
    { label: t("chunks"), cell: (f) => (f.status === "done" ? f.chunksCount : "—") },
    { label: t("added"), class: "nowrap", cell: (f) => formatTime(f.createdAt) },
  ];
  if (editable)
    columns.push({
      label: t("actions"),
      hiddenLabel: true,
      cell: (f) => (
        <div class="row-actions">
          <Button
            held={pending(f)}
            aria-label={t("reparseNamed", { name: f.filename })}
            onClick={async () => {
              try {
                await reparseFile(kb.id, f.id);
              } catch (err) {
                return toast(problemOf(err).detail, "error");
              }
              toast(t("reparsed", { name: f.filename }));
              await files.reload();
            }}
          >
            {t("reparse")}
          </Button>
          <Button
            variant="danger"
            aria-label={t("deleteNamed", { name: f.filename })}
            onClick={() => crud.setDeleting(f)}
          >
            {t("delete")}
          </Button>
        </div>
      ),
    });

  return (
    <section class="section" aria-labelledby="kb-files-title">
      <h2 id="kb-files-title">{t("files")}</h2>
      {editable && <Uploads {...uploads} />}
      <ResourceList
        crud={crud}
        labelledBy="kb-files-title"
        columns={columns}
        empty={t("noFiles")}
        pageSize={PAGE_SIZE}
        remove={{
          title: t("deleteFileTitle"),
          message: (f) => t("deleteFileMessage", { name: f.filename }),
          run: (f) => deleteFile(kb.id, f.id),
          done: (f) => t("fileDeleted", { name: f.filename }),
        }}
      />
    </section>
  );
}

function FileStatus({ file }: { file: KnowledgeBaseFile }) {
  if (file.status === "failed")
    return <span class="status failed">{t("failedBecause", { reason: failureReason(file) })}</span>;
  if (file.status === "done") return <span class="status ok">{t("done")}</span>;
  return (
    <span class="status muted">
      <span class="spinner" aria-hidden="true" /> {t(file.status)}
    </span>
  );
}
