import { useState } from "preact/hooks";
import { Button } from "../../components/button";
import { ConfirmDialog } from "../../components/confirm";
import { ErrorAlert, Loading, Notice } from "../../components/alert";
import { toast } from "../../components/toast";
import { DataTable, type Column } from "../../components/data-table";
import { PageHeader } from "../../components/page-header";
import { Pager } from "../../components/pager";
import { useResource } from "../../components/use-resource";
import { can } from "../../shell/session";
import type { PageProps } from "../types";
import { deleteCannedResponse, listCannedResponses, PAGE_SIZE, type CannedResponse } from "./api";
import { CannedForm } from "./canned-form";
import { t } from "./strings";

/** The organization's canned responses: what `/` offers in a conversation's reply box. */
export default function CannedResponsesPage({ organizationId }: PageProps) {
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState("");
  const list = useResource(() => listCannedResponses(page, search), [organizationId, page, search]);
  const manage = can("canned_response.manage");
  const [editing, setEditing] = useState<CannedResponse | "new" | null>(null);
  const [deleting, setDeleting] = useState<CannedResponse | null>(null);
  const columns: Column<CannedResponse>[] = [
    { label: t("shortCode"), rowHeader: true, cell: (c) => <code>/{c.shortCode}</code> },
    { label: t("content"), class: "wrap-text", cell: (c) => c.content },
  ];
  if (manage) {
    columns.push({
      label: t("actions"),
      hiddenLabel: true,
      cell: (c) => (
        <div class="row-actions">
          <Button aria-label={t("editNamed", { code: c.shortCode })} onClick={() => setEditing(c)}>
            {t("edit")}
          </Button>
          <Button variant="danger" aria-label={t("deleteNamed", { code: c.shortCode })} onClick={() => setDeleting(c)}>
            {t("delete")}
          </Button>
        </div>
      ),
    });
  }
  return (
    <>
      <PageHeader title={t("title")}>
        {manage && (
          <Button variant="primary" onClick={() => setEditing("new")}>
            {t("create")}
          </Button>
        )}
      </PageHeader>
      <p class="muted">{t("intro")}</p>
      {!manage && <Notice>{t("viewOnly")}</Notice>}
      <div class="field canned-search">
        <label for="canned-search">{t("search")}</label>
        <input
          id="canned-search"
          type="search"
          value={search}
          onInput={(e) => {
            setSearch(e.currentTarget.value);
            setPage(1);
          }}
        />
      </div>
      <h2 id="canned-title" class="sr-only">
        {t("title")}
      </h2>
      <ErrorAlert error={list.error} />
      {list.data === undefined ? (
        list.loading && <Loading />
      ) : list.data.count === 0 ? (
        <p>{search ? t("noMatch") : t("none")}</p>
      ) : (
        <>
          <DataTable labelledBy="canned-title" rows={list.data.results} rowKey={(c) => c.id} columns={columns} />
          <Pager page={page} count={list.data.count} pageSize={PAGE_SIZE} onPage={setPage} />
        </>
      )}
      {editing && (
        <CannedForm
          editing={editing === "new" ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(c) => {
            toast(t("saved", { code: c.shortCode }));
            list.reload();
          }}
        />
      )}
      <ConfirmDialog
        open={!!deleting}
        title={t("deleteTitle")}
        message={t("deleteMessage", { code: deleting?.shortCode ?? "" })}
        action={t("delete")}
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          await deleteCannedResponse(deleting!.id);
          toast(t("deleted", { code: deleting!.shortCode }));
          await list.reload();
        }}
      />
    </>
  );
}
