import { useState } from "preact/hooks";
import { type Column, ResourceListPage, useCrudList, linkColumn } from "../../components";
import { formatTime } from "../../i18n";
import { can } from "../../shell/session";
import { listWebChats, PAGE_SIZE } from "./api";
import { CreateDialog } from "./create-dialog";
import type { WebChat } from "./draft";
import { t } from "./strings";

/** The organization's web chats, each with a link to its designer. */
export function WebChatList() {
  const [creating, setCreating] = useState(false);
  const crud = useCrudList(listWebChats, []);
  const columns: Column<WebChat>[] = [
    { label: t("name"), rowHeader: true, cell: (c) => c.name },
    { label: t("inbox"), cell: (c) => c.inbox.name },
    { label: t("access"), cell: (c) => t(c.accessType) },
    {
      label: t("state"),
      cell: (c) => <span class={`status ${c.isActive ? "ok" : "muted"}`}>{t(c.isActive ? "active" : "inactive")}</span>,
    },
    { label: t("updated"), cell: (c) => formatTime(c.updatedAt) },
    linkColumn(
      t("design"),
      (c) => t("designNamed", { name: c.name }),
      (c) => `/web-chats/${c.id}`,
    ),
  ];
  return (
    <ResourceListPage
      title={t("title")}
      action={can("inbox.manage") && { text: t("newInbox"), run: () => setCreating(true) }}
      intro={t("intro")}
      introId="web-chats-intro"
      crud={crud}
      labelledBy="web-chats-intro"
      columns={columns}
      empty={t("noWebChats")}
      pageSize={PAGE_SIZE}
    >
      {creating && <CreateDialog onClose={() => setCreating(false)} />}
    </ResourceListPage>
  );
}
