import { useState } from "preact/hooks";
import { Button } from "../../components/button";
import { ConfirmDialog } from "../../components/confirm";
import { ErrorAlert, Loading } from "../../components/alert";
import { toast } from "../../components/toast";
import { DataTable, type Column } from "../../components/data-table";
import { PageHeader } from "../../components/page-header";
import { Pager } from "../../components/pager";
import { useResource } from "../../components/use-resource";
import { BASE, followLink } from "../../shell/router";
import { can } from "../../shell/session";
import { deleteDatabase, listDatabases, type SqlDatabaseItem } from "./api";
import { DatabaseForm } from "./database-form";
import { StatusBadge } from "./status";
import { t } from "./strings";

/** The SQL databases the member can see; each opens its tables and "ask a question". */
export function DatabaseList({ organizationId }: { organizationId: string }) {
  const [page, setPage] = useState(1);
  const databases = useResource(() => listDatabases(page), [organizationId, page]);
  const manage = can("sql_database.manage");
  const [editing, setEditing] = useState<SqlDatabaseItem | "new" | null>(null);
  const [deleting, setDeleting] = useState<SqlDatabaseItem | null>(null);
  const columns: Column<SqlDatabaseItem>[] = [
    {
      label: t("name"),
      rowHeader: true,
      cell: (d) => (
        <a href={`${BASE}/sql-databases/${d.id}`} onClick={followLink}>
          {d.name}
        </a>
      ),
    },
    { label: t("databaseType"), cell: (d) => t(`type_${d.databaseType}`) },
    { label: t("status"), cell: (d) => <StatusBadge status={d.status} active={d.isActive} /> },
    { label: t("tables"), class: "wrap", cell: (d) => d.tables.map((x) => x.tableName).join(", ") || "—" },
    { label: t("groupsColumn"), cell: (d) => d.groups.map((g) => g.name).join(", ") || "—" },
  ];
  if (manage)
    columns.push({
      label: t("actions"),
      hiddenLabel: true,
      cell: (d) => (
        <div class="row-actions">
          {d.canUpdate && (
            <Button aria-label={t("editNamed", { name: d.name })} onClick={() => setEditing(d)}>
              {t("edit")}
            </Button>
          )}
          {d.canDelete && (
            <Button variant="danger" aria-label={t("deleteNamed", { name: d.name })} onClick={() => setDeleting(d)}>
              {t("delete")}
            </Button>
          )}
        </div>
      ),
    });
  return (
    <>
      <PageHeader title={t("title")}>
        {manage && (
          <Button variant="primary" onClick={() => setEditing("new")}>
            {t("addDatabase")}
          </Button>
        )}
      </PageHeader>
      <p class="muted">{t("intro")}</p>
      <h2 id="databases-title" class="sr-only">
        {t("title")}
      </h2>
      <ErrorAlert error={databases.error} />
      {databases.data === undefined ? (
        databases.loading && <Loading />
      ) : databases.data.count === 0 ? (
        <p>{t("noDatabases")}</p>
      ) : (
        <>
          <DataTable
            labelledBy="databases-title"
            rows={databases.data.results}
            rowKey={(d) => d.id}
            columns={columns}
          />
          <Pager page={page} count={databases.data.count} pageSize={20} onPage={setPage} />
        </>
      )}
      {editing && (
        <DatabaseForm
          database={editing === "new" ? undefined : editing}
          organizationId={organizationId}
          onClose={() => setEditing(null)}
          onSaved={(d) => {
            toast(t("saved", { name: d.name }));
            databases.reload();
          }}
        />
      )}
      <ConfirmDialog
        open={!!deleting}
        title={t("deleteDatabase")}
        message={t("deleteMessage", { name: deleting?.name ?? "" })}
        action={t("delete")}
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          await deleteDatabase(deleting!.id);
          toast(t("deleted", { name: deleting!.name }));
          await databases.reload();
        }}
      />
    </>
  );
}
