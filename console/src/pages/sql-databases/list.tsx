import { editDeleteColumn, type Column, ResourceListPage, useCrudList } from "../../components";
import { BASE, followLink } from "../../shell/router";
import { can } from "../../shell/session";
import { deleteDatabase, listDatabases, type SqlDatabase, type SqlDatabaseItem } from "./api";
import { DatabaseForm } from "./database-form";
import { StatusBadge } from "./status";
import { t } from "./strings";

/** The SQL databases the member can see; each opens its tables and "ask a question". */
export function DatabaseList({ organizationId }: { organizationId: string }) {
  const crud = useCrudList(listDatabases, [organizationId]);
  const manage = can("sql_database.manage");
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
    columns.push(
      editDeleteColumn<SqlDatabaseItem>(
        t("actions"),
        crud,
        { edit: (d) => t("editNamed", { name: d.name }), delete: (d) => t("deleteNamed", { name: d.name }) },
        { edit: (d) => d.canUpdate, delete: (d) => d.canDelete },
      ),
    );
  return (
    <ResourceListPage
      title={t("title")}
      action={manage && { text: t("addDatabase"), run: () => crud.setEditing("new") }}
      intro={t("intro")}
      crud={crud}
      labelledBy="databases-title"
      columns={columns}
      empty={t("noDatabases")}
      pageSize={20}
      form={(database, close, saved) => (
        <DatabaseForm
          database={database ?? undefined}
          organizationId={organizationId}
          onClose={close}
          onSaved={saved}
        />
      )}
      saved={(d: SqlDatabase) => t("saved", { name: d.name })}
      remove={{
        title: t("deleteDatabase"),
        message: (d) => t("deleteMessage", { name: d.name }),
        run: (d) => deleteDatabase(d.id),
        done: (d) => t("deleted", { name: d.name }),
      }}
    />
  );
}
