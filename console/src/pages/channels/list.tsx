import { useState } from "preact/hooks";
import { ErrorAlert, DataTable, type Column, PageHeader, ListBody, linkColumn, useResource } from "../../components";
import { formatTime } from "../../i18n";
import { can } from "../../shell/session";
import { messagingInboxesWithStatus, type InboxWithStatus } from "./api";
import { CreateDialog } from "./create-dialog";
import { PLATFORMS, platformName } from "./platforms";
import { t } from "./strings";

/** The messaging inboxes, each with its status and a link to its channel settings. */
export function ChannelList() {
  const [creating, setCreating] = useState(false);
  const inboxes = useResource(messagingInboxesWithStatus, []);
  const columns: Column<InboxWithStatus>[] = [
    { label: t("name"), rowHeader: true, cell: (i) => i.name },
    { label: t("platform"), cell: (i) => platformName(i.channelType) },
    { label: t("status"), cell: statusCell },
    { label: t("assistant"), cell: (i) => i.chatbot?.name ?? <span class="muted">{t("noAssistant")}</span> },
    { label: t("created"), cell: (i) => formatTime(i.createdAt) },
    linkColumn(
      t("open"),
      (i) => t("openNamed", { name: i.name }),
      (i) => `/channels/${i.id}`,
    ),
  ];
  return (
    <>
      <PageHeader
        title={t("title")}
        action={can("inbox.manage") && { text: t("newInbox"), run: () => setCreating(true) }}
      />
      <p class="muted" id="channels-intro">
        {t("intro")}
      </p>
      <ErrorAlert error={inboxes.error} />
      <ListBody
        list={inboxes}
        empty={t("none")}
        table={(rows) => <DataTable labelledBy="channels-intro" rows={rows} rowKey={(i) => i.id} columns={columns} />}
      />
      {creating && <CreateDialog onClose={() => setCreating(false)} />}
    </>
  );
}

/** The channel's status as its page shows it; a type not connectable yet says so. */
function statusCell(inbox: InboxWithStatus) {
  if (!PLATFORMS[inbox.channelType]) return <span class="muted">{t("cannotConnect")}</span>;
  if (!inbox.status) return <span class="muted">{t("unknownStatus")}</span>;
  return (
    <span class={`badge channel-status ${inbox.status}`} data-status={inbox.status}>
      {t(inbox.status)}
    </span>
  );
}
