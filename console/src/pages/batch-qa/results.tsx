import { useEffect } from "preact/hooks";
import { otherwise } from "../../api/client";
import {
  Button,
  ErrorAlert,
  Loading,
  announce,
  DataTable,
  type Column,
  useResource,
  SectionHead,
} from "../../components";
import { exportRun, getRun, runItems, type BatchQa, type BatchQaItem } from "./api";
import { t } from "./strings";

const POLL_MS = 1000;
const score = (v: number | null) => (v === null ? "—" : v.toFixed(2));

/** A run's questions, answers and scores; polled while the run is under way, with its spreadsheet as a download. */
export function RunResults({
  webChatId,
  run,
  onProgress,
}: {
  webChatId: string;
  run: BatchQa;
  onProgress: (run: BatchQa) => void;
}) {
  const items = useResource(() => runItems(webChatId, run.id), [webChatId, run.id, run.completed]);
  const running = run.status === "pending" || run.status === "running";
  useEffect(() => {
    if (!running) return;
    const timer = setTimeout(async () => {
      const next = await getRun(webChatId, run.id).catch(otherwise(run)); // asked again at the next tick
      if (next.status === "done") announce(t("runDone", { name: next.filename, n: next.total }));
      onProgress(next);
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [run]);
  const download = async () => {
    const blob = await exportRun(webChatId, run.id);
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = `batch-qa-${run.id}.xlsx`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
  };
  const columns: Column<BatchQaItem>[] = [
    { label: "#", cell: (i) => i.position },
    { label: t("question"), rowHeader: true, class: "wrap-text", cell: (i) => i.question },
    { label: t("expectedAnswer"), class: "wrap-text", cell: (i) => i.expectedAnswer ?? "—" },
    {
      label: t("answer"),
      class: "wrap-text",
      cell: (i) =>
        i.status === "failed" ? (
          <span class="status failed">{i.error}</span>
        ) : (
          (i.answer ?? <span class="muted">{t("pending")}</span>)
        ),
    },
    {
      label: t("replyTime"),
      class: "nowrap",
      cell: (i) => (i.replyTime === null ? "—" : t("seconds", { s: i.replyTime.toFixed(2) })),
    },
    { label: t("correctness"), cell: (i) => score(i.answerCorrectness) },
    { label: t("faithfulness"), cell: (i) => score(i.faithfulness) },
    { label: t("relevancy"), cell: (i) => score(i.answerRelevancy) },
  ];
  return (
    <section aria-labelledby="results-title" class="section">
      <SectionHead id="results-title" title={t("resultsOf", { name: run.filename })}>
        <Button onClick={download}>{t("export")}</Button>
      </SectionHead>
      <p>
        <span role="status">{t("progress", { done: run.completed, total: run.total, failed: run.failed })}</span>
        {run.averageAnswerCorrectness !== null && <> · {t("average", { v: score(run.averageAnswerCorrectness) })}</>}
      </p>
      <ErrorAlert error={items.error} />
      {items.data === undefined ? (
        items.loading && <Loading />
      ) : (
        <DataTable labelledBy="results-title" rows={items.data} rowKey={(i) => i.id} columns={columns} />
      )}
    </section>
  );
}
