import { useEffect, useRef, useState } from "preact/hooks";
import { problemOf } from "../../api/client";
import { isImportFailure } from "../../shell/import-failure";
import { UnreadableFile } from "./unreadable-file";
import { Button, Dialog, ErrorAlert, Notice, common } from "../../components";
import { createFaq, createLabel, type KnowledgeBase, type Label } from "./api";
import { t } from "./strings";

interface Row {
  row: number;
  question: string;
  answer: string;
  labels: string[];
}

const HEADERS = {
  question: /^(question|問題|问题|q)$/i,
  answer: /^(answer|答案|回答|a)$/i,
  labels: /^(labels?|標籤|标签)$/i,
};

/** FAQ rows from a sheet: columns named by a header row, else question and answer first. */
function faqRows(rows: string[][]): Row[] {
  const header = rows[0] ?? [];
  const at = (name: keyof typeof HEADERS) => header.findIndex((cell) => HEADERS[name].test(cell));
  const named = at("question") >= 0 && at("answer") >= 0;
  const [q, a, l] = named ? [at("question"), at("answer"), at("labels")] : [0, 1, 2];
  return rows
    .map((cells, i) => ({
      row: i + 1,
      question: cells[q] ?? "",
      answer: cells[a] ?? "",
      labels: (l >= 0 ? (cells[l] ?? "") : "")
        .split(/[,;，、]/)
        .map((s) => s.trim())
        .filter(Boolean),
    }))
    .slice(named ? 1 : 0)
    .filter((r) => r.question && r.answer);
}

/** Reads a CSV or XLSX in the browser and creates its FAQs (and missing labels) one by one, telling which rows failed.
 * */
export function FaqImport({
  kb,
  labels,
  onClose,
  onImported,
}: {
  kb: KnowledgeBase;
  labels: Label[];
  onClose: () => void;
  onImported: () => void;
}) {
  const [rows, setRows] = useState<Row[] | null>(null);
  const [readError, setReadError] = useState<string | null>(null);
  const [progress, setProgress] = useState<{ done: number; failures: string[]; finished: boolean } | null>(null);
  const close = useRef<HTMLButtonElement>(null);
  // The pressed Import button is disabled while it runs, then gone: the focus goes to Close, the one step left.
  useEffect(() => {
    if (progress?.finished) close.current?.focus();
  }, [progress?.finished]);

  const choose = async (file: File | undefined) => {
    setRows(null);
    setReadError(null);
    setProgress(null);
    if (!file) return;
    let read: string[][];
    try {
      const { readRows } = await import("./read-rows");
      read = await readRows(file);
    } catch (err) {
      // Not a spreadsheet, gone from the disk (the browser's DOMException), or the reader's chunk not
      // fetched: the member may choose again. A bug in the reader is thrown on.
      if (!(err instanceof UnreadableFile || err instanceof DOMException || isImportFailure(err))) throw err;
      return setReadError(t("importUnreadable", { detail: (err as Error).message }));
    }
    setRows(faqRows(read));
  };

  const run = async () => {
    if (!rows) return;
    const ids = new Map(labels.map((l) => [l.name.toLowerCase(), l.id]));
    const failures: string[] = [];
    let done = 0;
    setProgress({ done, failures, finished: false });
    for (const r of rows) {
      try {
        for (const name of r.labels)
          if (!ids.has(name.toLowerCase())) ids.set(name.toLowerCase(), (await createLabel(kb.id, name)).id);
        await createFaq(kb.id, {
          question: r.question,
          answer: r.answer,
          labels: r.labels.map((name) => ({ id: ids.get(name.toLowerCase())! })),
        });
        done++;
      } catch (err) {
        failures.push(t("importRowFailed", { row: r.row, detail: problemOf(err).detail }));
      }
      setProgress({ done, failures: [...failures], finished: false });
    }
    setProgress({ done, failures, finished: true });
    onImported();
  };

  const running = progress && !progress.finished;
  return (
    <Dialog
      title={t("importTitle")}
      open
      onClose={onClose}
      footer={
        <>
          <Button ref={close} onClick={onClose}>
            {progress?.finished ? common("close") : common("cancel")}
          </Button>
          {rows && rows.length > 0 && !progress?.finished && (
            <Button variant="primary" busy={!!running} onClick={run}>
              {t("importAction", { count: rows.length })}
            </Button>
          )}
        </>
      }
    >
      <div class="stack">
        <div class="field">
          <label for="kb-import-file">{t("importFile")}</label>
          <input
            id="kb-import-file"
            type="file"
            accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            aria-describedby="kb-import-hint"
            disabled={!!running}
            onChange={(e) => choose(e.currentTarget.files?.[0])}
          />
          <p class="hint" id="kb-import-hint">
            {t("importHint")}
          </p>
        </div>
        {readError && <ErrorAlert error={readError} />}
        {rows && !progress && (
          <Notice>{rows.length ? t("importReady", { count: rows.length }) : t("importEmpty")}</Notice>
        )}
        {progress && (
          <div role="status">
            <progress
              max={rows!.length}
              value={progress.done + progress.failures.length}
              aria-label={t("importProgress", { done: progress.done, count: rows!.length })}
            />
            <p>
              {progress.finished
                ? t("importDone", { done: progress.done, count: rows!.length })
                : t("importProgress", { done: progress.done, count: rows!.length })}
            </p>
          </div>
        )}
        {progress && progress.failures.length > 0 && (
          <ul class="kb-import-failures">
            {progress.failures.map((f) => (
              <li key={f}>{f}</li>
            ))}
          </ul>
        )}
      </div>
    </Dialog>
  );
}
