import { useState } from "preact/hooks";
import { ErrorAlert, Loading, DataTable, type Column, Pager, useResource } from "../../components";
import {
  type ChatbotUsage,
  chatbotUsage,
  formatCount,
  memberUsage,
  type MemberUsage,
  type SectionProps,
  type UsageCounts,
} from "./api";
import { t } from "./strings";

const PAGE_SIZE = 10;

/** The counts every usage row shows, after its name. */
const countColumns = <Row extends UsageCounts>(): Column<Row>[] => [
  { label: t("conversations"), class: "num", cell: (r) => formatCount(r.conversationsCount) },
  { label: t("messages"), class: "num", cell: (r) => formatCount(r.messagesCount) },
  { label: t("tokens"), class: "num", cell: (r) => formatCount(r.totalTokens) },
  { label: t("words"), class: "num", cell: (r) => formatCount(r.wordsCount) },
  { label: t("failedReplies"), class: "num", cell: (r) => formatCount(r.failedRepliesCount) },
];

/** Usage per assistant and per member in the range (of one assistant when one is chosen), busiest first. */
export function UsageSection({ organizationId, range, chatbot }: SectionProps) {
  const [botPage, setBotPage] = useState(1);
  const [memberPage, setMemberPage] = useState(1);
  const query = {
    ...range,
    chatbot: chatbot || undefined,
    pageSize: PAGE_SIZE,
    sortBy: "messagesCount" as const,
    sortOrder: "desc" as const,
  };
  const bots = useResource(
    () => chatbotUsage(organizationId, { ...query, page: botPage }),
    [organizationId, range, chatbot, botPage],
  );
  const members = useResource(
    () => memberUsage(organizationId, { ...query, page: memberPage }),
    [organizationId, range, chatbot, memberPage],
  );
  return (
    <>
      <section aria-labelledby="usage-bots" class="section">
        <h2 id="usage-bots">{t("usageByAssistant")}</h2>
        <UsageTable<ChatbotUsage>
          labelledBy="usage-bots"
          resource={bots}
          columns={[{ label: t("name"), rowHeader: true, cell: (r) => r.name }, ...countColumns<ChatbotUsage>()]}
          page={botPage}
          onPage={setBotPage}
        />
      </section>
      <section aria-labelledby="usage-members" class="section">
        <h2 id="usage-members">{t("usageByMember")}</h2>
        <p class="muted small">{t("usageByMemberNote")}</p>
        <UsageTable<MemberUsage>
          labelledBy="usage-members"
          resource={members}
          columns={[
            { label: t("name"), rowHeader: true, cell: (r) => r.name },
            { label: t("email"), cell: (r) => r.email },
            ...countColumns<MemberUsage>(),
          ]}
          page={memberPage}
          onPage={setMemberPage}
        />
      </section>
    </>
  );
}

type Answer<Row> = { count: number; results: Row[] } | unknown[];

function UsageTable<Row extends { id: string }>(props: {
  labelledBy: string;
  resource: { data: Answer<Row> | undefined; error: unknown; loading: boolean };
  columns: Column<Row>[];
  page: number;
  onPage: (page: number) => void;
}) {
  const { data, error, loading } = props.resource;
  // Without includeTime the answer is always a page.
  const page = data && !Array.isArray(data) ? data : undefined;
  return (
    <>
      <ErrorAlert error={error} />
      {page === undefined ? (
        loading && <Loading />
      ) : page.count === 0 ? (
        <p>{t("noUsage")}</p>
      ) : (
        <DataTable labelledBy={props.labelledBy} rows={page.results} rowKey={(r) => r.id} columns={props.columns} />
      )}
      {page && <Pager page={props.page} count={page.count} pageSize={PAGE_SIZE} onPage={props.onPage} />}
    </>
  );
}
