import { useState } from "preact/hooks";
import { ApiProblem, api, problemOf, unwrap } from "../../api/client";
import { ErrorAlert, Loading } from "../../components/alert";
import { toast } from "../../components/toast";
import { Button } from "../../components/button";
import { DataTable, type Column } from "../../components/data-table";
import { SelectField, TextField } from "../../components/field";
import { Pager } from "../../components/pager";
import { useResource } from "../../components/use-resource";
import { formatTime } from "../../i18n";
import type { ChatbotRecord, Range } from "./api";
import { t } from "./strings";

const PAGE_SIZE = 20;
const SCORES = [
  "faithfulness",
  "answerRelevancy",
  "contextPrecision",
  "answerCorrectness",
  "answerSimilarity",
  "contextRecall",
] as const;

interface Filters {
  userMessage: string;
  botMessage: string;
}

/**
 * An assistant's questions and answers in the range (the chosen assistant, else one picked here),
 * filtered by text, a page at a time; and the same rows as a spreadsheet download.
 */
export function RecordsSection({
  range,
  chatbot,
  assistants,
}: {
  range: Range;
  chatbot: string;
  assistants: { id: string; name: string }[] | undefined;
}) {
  const [picked, setPicked] = useState("");
  const [filters, setFilters] = useState<Filters>({ userMessage: "", botMessage: "" });
  const [page, setPage] = useState(1);
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<unknown>(null);
  const bot = chatbot || picked || assistants?.[0]?.id || "";
  const query = {
    ...range,
    userMessage: filters.userMessage || undefined,
    botMessage: filters.botMessage || undefined,
  };
  const records = useResource(
    () =>
      bot
        ? unwrap(
            api.GET("/api/v1/chatbots/{chatbotPk}/records/", {
              params: { path: { chatbotPk: bot }, query: { ...query, page, pageSize: PAGE_SIZE } },
            }),
          )
        : Promise.resolve(undefined),
    [bot, range, filters, page],
  );

  const filter = (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    setPage(1);
    setFilters({
      userMessage: String(form.get("userMessage") ?? "").trim(),
      botMessage: String(form.get("botMessage") ?? "").trim(),
    });
  };

  // Fetched through the client (it sends the organization), then saved under the API's file name.
  const download = async () => {
    setExporting(true);
    setExportError(null);
    try {
      const answer = await api.GET("/api/v1/chatbots/{chatbotPk}/records/export-excel/", {
        params: { path: { chatbotPk: bot }, query },
        parseAs: "blob",
      });
      if (!answer.response.ok)
        throw new ApiProblem(
          answer.response.status,
          (answer.error as { detail?: string })?.detail ?? answer.response.statusText,
          "error",
        );
      const name =
        /filename="?([^";]+)"?/.exec(answer.response.headers.get("Content-Disposition") ?? "")?.[1] ?? "records.xlsx";
      const url = URL.createObjectURL(answer.data as Blob);
      const link = Object.assign(document.createElement("a"), { href: url, download: name });
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      toast(t("exported"));
    } catch (err) {
      setExportError(problemOf(err));
    } finally {
      setExporting(false);
    }
  };

  type Row = NonNullable<typeof records.data>["results"][number];
  const columns: Column<Row>[] = [
    { label: t("question"), rowHeader: true, class: "text", cell: (r) => r.inputMessage },
    {
      label: t("answer"),
      class: "text",
      cell: (r) => (r.error ? <span class="status failed">{t("failed", { error: r.error })}</span> : r.outputMessage),
    },
    {
      label: t("replyTime"),
      class: "num",
      cell: (r) => (r.replyTime === null ? "—" : t("seconds", { n: r.replyTime.toFixed(2) })),
    },
    { label: t("scores"), cell: (r) => <Scores record={r} /> },
    { label: t("askedAt"), class: "nowrap", cell: (r) => formatTime(r.createdAt) },
  ];
  const data = records.data;
  return (
    <section aria-labelledby="stats-records" class="section">
      <div class="section-head">
        <h2 id="stats-records">{t("records")}</h2>
        {bot && (
          <Button onClick={download} busy={exporting}>
            {t("exportXlsx")}
          </Button>
        )}
      </div>
      <p class="muted">{t("recordsIntro")}</p>
      {!assistants?.length ? (
        assistants && <p>{t("pickAssistant")}</p>
      ) : (
        <form class="filters" onSubmit={filter}>
          {!chatbot && (
            <SelectField
              label={t("questionsOf")}
              value={bot}
              onChange={(e) => {
                setPage(1);
                setPicked(e.currentTarget.value);
              }}
              options={assistants.map((a): [string, string] => [a.id, a.name])}
            />
          )}
          <TextField
            label={t("questionContains")}
            name="userMessage"
            maxLength={500}
            defaultValue={filters.userMessage}
          />
          <TextField label={t("answerContains")} name="botMessage" maxLength={500} defaultValue={filters.botMessage} />
          <Button type="submit">{t("filter")}</Button>
        </form>
      )}
      <ErrorAlert error={records.error ?? exportError} />
      {data === undefined ? (
        records.loading && bot && <Loading />
      ) : data.count === 0 ? (
        <p>{t("noRecords")}</p>
      ) : (
        <DataTable labelledBy="stats-records" rows={data.results} rowKey={(r) => r.id} columns={columns} />
      )}
      {data && <Pager page={page} count={data.count} pageSize={PAGE_SIZE} onPage={setPage} />}
    </section>
  );
}

/** The evaluation scores of a record as the API words them ("85%"), or that it was not evaluated. */
function Scores({ record }: { record: Omit<ChatbotRecord, "contact"> }) {
  if (!record.evaluationStatus) return <span class="muted">{t("notScored")}</span>;
  return (
    <dl class="scores">
      {SCORES.map((s) => (
        <div key={s}>
          <dt>{t(s)}</dt>
          <dd>{record[`${s}Display`] ?? "—"}</dd>
        </div>
      ))}
    </dl>
  );
}
