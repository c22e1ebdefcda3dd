import { useEffect, useState } from "preact/hooks";
import { Button } from "../../components/button";
import { ConfirmDialog } from "../../components/confirm";
import { ErrorAlert, Loading } from "../../components/alert";
import { toast } from "../../components/toast";
import { DataTable, type Column } from "../../components/data-table";
import { TextField } from "../../components/field";
import { PageHeader } from "../../components/page-header";
import { Pager } from "../../components/pager";
import { useResource } from "../../components/use-resource";
import { can } from "../../shell/session";
import { LabelChip } from "../inbox/labels";
import type { PageProps } from "../types";
import { PAGE_SIZE, deleteLabel, listLabels, type Label } from "./api";
import { LabelForm } from "./label-form";
import { t } from "./strings";

/** The organization's conversation labels: created, recoloured and deleted here, put on conversations in the inbox. */
export default function LabelsPage({ organizationId }: PageProps) {
  const [page, setPage] = useState(1);
  const [typed, setTyped] = useState("");
  const [search, setSearch] = useState("");
  // Typing waits a moment before asking, so each key press is not a request.
  useEffect(() => {
    const timer = setTimeout(() => {
      setSearch(typed.trim());
      setPage(1);
    }, 300);
    return () => clearTimeout(timer);
  }, [typed]);
  const labels = useResource(() => listLabels(page, search), [organizationId, page, search]);
  const manage = can("label.manage");
  const [editing, setEditing] = useState<Label | "new" | null>(null);
  const [deleting, setDeleting] = useState<Label | null>(null);
  const columns: Column<Label>[] = [
    { label: t("name"), rowHeader: true, cell: (l) => <LabelChip label={l} /> },
    { label: t("color"), cell: (l) => <code>{l.color}</code> },
    { label: t("description"), class: "wrap-text", cell: (l) => l.description || "—" },
    ...(manage
      ? [
          {
            label: t("actions"),
            hiddenLabel: true,
            cell: (l: Label) => (
              <div class="row-actions">
                <Button aria-label={t("editNamed", { name: l.name })} onClick={() => setEditing(l)}>
                  {t("edit")}
                </Button>
                <Button variant="danger" aria-label={t("deleteNamed", { name: l.name })} onClick={() => setDeleting(l)}>
                  {t("delete")}
                </Button>
              </div>
            ),
          },
        ]
      : []),
  ];
  return (
    <>
      <PageHeader title={t("title")}>
        {manage && (
          <Button variant="primary" onClick={() => setEditing("new")}>
            {t("newLabel")}
          </Button>
        )}
      </PageHeader>
      <p class="muted">{t("intro")}</p>
      <form class="labels-search" role="search" onSubmit={(e) => e.preventDefault()}>
        <TextField label={t("search")} type="search" value={typed} onInput={(e) => setTyped(e.currentTarget.value)} />
      </form>
      <h2 id="labels-title" class="sr-only">
        {t("title")}
      </h2>
      <ErrorAlert error={labels.error} />
      {labels.data === undefined ? (
        labels.loading && <Loading />
      ) : labels.data.count === 0 ? (
        <p>{search ? t("noMatch") : t("noLabels")}</p>
      ) : (
        <>
          <DataTable labelledBy="labels-title" rows={labels.data.results} rowKey={(l) => l.id} columns={columns} />
          <Pager page={page} count={labels.data.count} pageSize={PAGE_SIZE} onPage={setPage} />
        </>
      )}
      {editing && (
        <LabelForm
          label={editing === "new" ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(l, created) => {
            toast(t(created ? "created" : "saved", { name: l.name }));
            void labels.reload();
          }}
        />
      )}
      <ConfirmDialog
        open={!!deleting}
        title={t("deleteLabel")}
        message={t("deleteMessage", { name: deleting?.name ?? "" })}
        action={t("delete")}
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          await deleteLabel(deleting!.id);
          toast(t("deleted", { name: deleting!.name }));
          await labels.reload();
        }}
      />
    </>
  );
}
