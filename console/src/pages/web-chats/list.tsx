import { useState } from "preact/hooks";
import { api, unwrap } from "../../api/client";
import { ErrorAlert, Loading } from "../../components/alert";
import { DataTable, type Column } from "../../components/data-table";
import { PageHeader } from "../../components/page-header";
import { Pager } from "../../components/pager";
import { useResource } from "../../components/use-resource";
import { formatTime } from "../../i18n";
import { BASE, followLink } from "../../shell/router";
import { can } from "../../shell/session";
import { Button } from "../../components/button";
import { CreateDialog } from "./create-dialog";
import type { WebChat } from "./draft";
import { t } from "./strings";

const PAGE_SIZE = 20;

/** The organization's web chats, each with a link to its designer. */
export function WebChatList() {
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const chats = useResource(
    () => unwrap(api.GET("/api/v1/web-chats/", { params: { query: { page, pageSize: PAGE_SIZE } } })),
    [page],
  );
  const columns: Column<WebChat>[] = [
    { label: t("name"), rowHeader: true, cell: (c) => c.name },
    { label: t("inbox"), cell: (c) => c.inbox.name },
    { label: t("access"), cell: (c) => t(c.accessType) },
    {
      label: t("state"),
      cell: (c) => <span class={`status ${c.isActive ? "ok" : "muted"}`}>{t(c.isActive ? "active" : "inactive")}</span>,
    },
    { label: t("updated"), cell: (c) => formatTime(c.updatedAt) },
    {
      label: t("design"),
      hiddenLabel: true,
      cell: (c) => (
        <div class="row-actions">
          <a
            class="btn secondary"
            href={`${BASE}/web-chats/${c.id}`}
            onClick={followLink}
            aria-label={t("designNamed", { name: c.name })}
          >
            {t("design")}
          </a>
        </div>
      ),
    },
  ];
  return (
    <>
      <PageHeader title={t("title")}>
        {can("inbox.manage") && (
          <Button variant="primary" onClick={() => setCreating(true)}>
            {t("newWebChat")}
          </Button>
        )}
      </PageHeader>
      <p class="muted" id="web-chats-intro">
        {t("intro")}
      </p>
      <ErrorAlert error={chats.error} />
      {chats.data === undefined ? (
        chats.loading && <Loading />
      ) : chats.data.count === 0 ? (
        <p>{t("noWebChats")}</p>
      ) : (
        <DataTable labelledBy="web-chats-intro" rows={chats.data.results} rowKey={(c) => c.id} columns={columns} />
      )}
      {chats.data && <Pager page={page} count={chats.data.count} pageSize={PAGE_SIZE} onPage={setPage} />}
      {creating && <CreateDialog onClose={() => setCreating(false)} />}
    </>
  );
}
