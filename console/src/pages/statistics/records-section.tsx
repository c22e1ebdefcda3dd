import { useState } from "preact/hooks";
import {
  ErrorAlert,
  Loading,
  Button,
  DataTable,
  type Column,
  SelectField,
  TextField,
  Pager,
  useResource,
  SectionHead,
} from "../../components";
import { formatTime } from "../../i18n";
import { type ChatbotRecord, chatbotRecords, exportChatbotRecords, type Range, useDownload } from "./api";
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
  const bot = chatbot || picked || assistants?.[0]?.id || "";
  const query = {
    ...range,
    userMessage: filters.userMessage || undefined,
    botMessage: filters.botMessage || undefined,
  };
  const records = useResource(
    () => (bot ? chatbotRecords(bot, { ...query, page, pageSize: PAGE_SIZE }) : Promise.resolve(undefined)),
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

  const xlsx = useDownload(() => exportChatbotRecords(bot, query), t("exported"));
  // Every record, however many: the .xlsx holds at most 8 MiB of cells (the API says so past it).
  const csv = useDownload(() => exportChatbotRecords(bot, query, "csv"), t("exportedCsv"));

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
      <SectionHead id="stats-records" title={t("records")}>
        {bot && (
          <>
            <Button onClick={xlsx.download} busy={xlsx.exporting}>
              {t("exportXlsx")}
            </Button>
            <Button onClick={csv.download} busy={csv.exporting}>
              {t("exportCsv")}
            </Button>
          </>
        )}
      </SectionHead>
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
      <ErrorAlert error={records.error ?? xlsx.exportError ?? csv.exportError} />
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
