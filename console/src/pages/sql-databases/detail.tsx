import { useState } from "preact/hooks";
import { problemOf } from "../../api/client";
import { Button, useRemoval, ErrorAlert, Loading, announce, toast, PageHeader, useResource } from "../../components";
import { BASE, followLink } from "../../shell/router";
import { can } from "../../shell/session";
import { checkConnection, deleteTable, getDatabase, type SqlTable } from "./api";
import { AskSection } from "./ask-section";
import { DatabaseForm } from "./database-form";
import { StatusBadge } from "./status";
import { TableUpload } from "./table-upload";
import { t } from "./strings";

/** One database: its status, its tables with their columns, new tables from files, and "ask a question". */
export function DatabaseDetail({ id, organizationId }: { id: string; organizationId: string }) {
  const database = useResource(() => getDatabase(id), [organizationId, id]);
  const manage = can("sql_database.manage");
  const [uploading, setUploading] = useState(false);
  const [editing, setEditing] = useState(false);
  const [checking, setChecking] = useState(false);
  const dropping = useRemoval<SqlTable>({
    title: t("deleteTable"),
    message: (table) => t("deleteTableMessage", { name: table.tableName }),
    run: (table) => deleteTable(id, table.id),
    done: (table) => t("deleted", { name: table.tableName }),
    after: database.reload,
  });
  const d = database.data;
  const check = async () => {
    setChecking(true);
    try {
      const after = await checkConnection(id);
      announce(t(`status_${after.status}` as "status_connected"), after.status === "failed");
      await database.reload();
    } catch (err) {
      announce(problemOf(err).detail, true);
    } finally {
      setChecking(false);
    }
  };
  return (
    <>
      <p class="back">
        <a href={`${BASE}/sql-databases`} onClick={followLink}>
          {t("allDatabases")}
        </a>
      </p>
      <PageHeader title={d?.name ?? t("title")}>
        {manage && d?.canUpdate && <Button onClick={() => setEditing(true)}>{t("edit")}</Button>}
        {manage && d?.databaseType === "managed" && (
          <Button variant="primary" onClick={() => setUploading(true)}>
            {t("addTable")}
          </Button>
        )}
        {manage && d && d.databaseType !== "managed" && (
          <Button busy={checking} onClick={check}>
            {t("checkConnection")}
          </Button>
        )}
      </PageHeader>
      <ErrorAlert error={database.error} />
      {!d ? (
        database.loading && <Loading />
      ) : (
        <>
          <p>
            {t(`type_${d.databaseType}`)} · <StatusBadge status={d.status} active={d.isActive} />
            {d.databaseUrl && (
              <>
                {" "}
                · <code>{d.databaseUrl}</code>
              </>
            )}
          </p>
          {d.description && <p class="muted">{d.description}</p>}
          <dl class="sql-facts small">
            <dt>{t("assistants")}</dt>
            <dd>{d.chatbots.map((b) => b.name).join(", ") || "—"}</dd>
            <dt>{t("groupsColumn")}</dt>
            <dd>{d.groups.map((g) => g.name).join(", ") || "—"}</dd>
            {d.databaseType !== "managed" && (
              <>
                <dt>{t("includeTables")}</dt>
                <dd>{d.includeTables?.tables.join(", ") || t("allTables")}</dd>
              </>
            )}
          </dl>
          {d.errorMessage && <ErrorAlert error={d.errorMessage} />}
          <section aria-labelledby="tables-title" class="section">
            <h2 id="tables-title">{t("tables")}</h2>
            {d.tables.length === 0 && <p>{d.databaseType === "managed" ? t("noTablesManaged") : t("noTables")}</p>}
            <ul class="sql-tables">
              {d.tables.map((table) => (
                <li key={table.id} class="sql-table">
                  <div class="section-head">
                    <h3>
                      <code>{table.tableName}</code>
                      {table.rowCount !== null && (
                        <span class="muted small"> · {t("rows", { n: table.rowCount })}</span>
                      )}
                    </h3>
                    {manage && d.databaseType === "managed" && (
                      <Button
                        variant="danger"
                        aria-label={t("deleteNamed", { name: table.tableName })}
                        onClick={() => dropping.ask(table)}
                      >
                        {t("delete")}
                      </Button>
                    )}
                  </div>
                  {table.description && <p class="muted">{table.description}</p>}
                  <p class="small columns">
                    {table.columns.map((c, i) => (
                      <span key={c.id}>
                        {i > 0 && ", "}
                        <code>{c.columnName}</code>{" "}
                        <span class="muted">
                          {c.columnType}
                          {c.isPrimaryKey ? ` · ${t("primaryKey")}` : ""}
                        </span>
                      </span>
                    ))}
                  </p>
                </li>
              ))}
            </ul>
          </section>
          <AskSection database={d} />
        </>
      )}
      {editing && d && (
        <DatabaseForm
          database={d}
          organizationId={organizationId}
          onClose={() => setEditing(false)}
          onSaved={(saved) => {
            toast(t("saved", { name: saved.name }));
            database.reload();
          }}
        />
      )}
      {uploading && d && (
        <TableUpload
          databaseId={d.id}
          organizationId={organizationId}
          onClose={() => setUploading(false)}
          onUploaded={(table) => {
            toast(t("tableAdded", { name: table.tableName }));
            database.reload();
          }}
        />
      )}
      {dropping.dialog}
    </>
  );
}
