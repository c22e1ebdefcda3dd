import { useEffect, useRef, useState } from "preact/hooks";
import {
  Button,
  ErrorAlert,
  Loading,
  toast,
  DataTable,
  type Column,
  SelectField,
  PageHeader,
  Pager,
  FileField,
  UploadProgress,
  usePagedResource,
  useResource,
  useSubmit,
} from "../../components";
import { formatTime } from "../../i18n";
import { can } from "../../shell/session";
import type { PageProps } from "../types";
import { listRuns, listWebChats, RUNS_PAGE_SIZE, startRun, type BatchQa } from "./api";
import { RunResults } from "./results";
import { t } from "./strings";

/** Batch QA: a spreadsheet of questions run through a web chat's assistant, and the answers with their scores. */
export default function BatchQaPage({ organizationId }: PageProps) {
  const webChats = useResource(listWebChats, [organizationId]);
  const [webChatId, setWebChatId] = useState("");
  const chosen = webChatId || webChats.data?.results[0]?.id || "";
  const {
    page,
    setPage,
    list: runs,
  } = usePagedResource((n) => (chosen ? listRuns(chosen, n) : Promise.resolve(null)), [chosen]);
  const [open, setOpen] = useState<BatchQa | null>(null);
  const [share, setShare] = useState<number | null>(null);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => setOpen(null), [chosen]);

  const { problem, submit } = useSubmit(async (data) => {
    const file = data.get("file");
    if (!(file instanceof File) || !file.name) return;
    setShare(0);
    try {
      const run = await startRun(chosen, file, setShare);
      toast(t("started", { name: run.filename, n: run.total }));
      form.current?.reset();
      setOpen(run);
      // The new run is the newest: the first page shows it.
      if (page === 1) void runs.reload();
      else setPage(1);
    } finally {
      setShare(null);
    }
  });
  const progressOf = (run: BatchQa) => (open?.id === run.id ? open : run);
  const columns: Column<BatchQa>[] = [
    { label: t("file"), rowHeader: true, cell: (r) => r.filename },
    { label: t("assistant"), cell: (r) => r.chatbot.name || "—" },
    { label: t("status"), cell: (r) => t(`status_${progressOf(r).status}` as "status_done") },
    { label: t("answered"), cell: (r) => `${progressOf(r).completed} / ${r.total}` },
    { label: t("correctness"), cell: (r) => progressOf(r).averageAnswerCorrectness?.toFixed(2) ?? "—" },
    { label: t("created"), class: "nowrap", cell: (r) => formatTime(r.createdAt) },
    {
      label: t("actions"),
      hiddenLabel: true,
      cell: (r) => (
        <div class="row-actions">
          <Button
            aria-label={t("showNamed", { name: r.filename })}
            aria-pressed={open?.id === r.id}
            onClick={() => setOpen(r)}
          >
            {t("show")}
          </Button>
        </div>
      ),
    },
  ];
  const fieldError = problem?.field("file") ?? problem?.field("fileSize") ?? problem?.field("filename");
  return (
    <>
      <PageHeader title={t("title")} />
      <p class="muted">{t("intro")}</p>
      <ErrorAlert error={webChats.error} />
      {webChats.data === undefined ? (
        webChats.loading && <Loading />
      ) : webChats.data.results.length === 0 ? (
        <p>{t("noWebChats")}</p>
      ) : (
        <>
          <SelectField
            label={t("webChat")}
            value={chosen}
            onChange={(e) => {
              setWebChatId(e.currentTarget.value);
              setPage(1);
            }}
            options={webChats.data.results.map((w) => [w.id, w.name])}
          />
          {can("chatbot.manage") && (
            <form ref={form} onSubmit={submit} class="batch-upload">
              <FileField label={t("questionsFile")} accept=".xlsx,.csv" hint={t("questionsHint")} error={fieldError} />
              <Button type="submit" variant="primary" busy={share !== null}>
                {t("run")}
              </Button>
            </form>
          )}
          <UploadProgress share={share} label={t("uploading")} />
          {problem && !fieldError && <ErrorAlert error={problem} />}
          <section aria-labelledby="runs-title" class="section">
            <h2 id="runs-title">{t("runs")}</h2>
            <ErrorAlert error={runs.error} />
            {runs.data === undefined ? (
              runs.loading && <Loading />
            ) : !runs.data?.count ? (
              <p>{t("noRuns")}</p>
            ) : (
              <>
                <DataTable labelledBy="runs-title" rows={runs.data.results} rowKey={(r) => r.id} columns={columns} />
                <Pager page={page} count={runs.data.count} pageSize={RUNS_PAGE_SIZE} onPage={setPage} />
              </>
            )}
          </section>
          {open && <RunResults webChatId={chosen} run={open} onProgress={setOpen} />}
        </>
      )}
    </>
  );
}
