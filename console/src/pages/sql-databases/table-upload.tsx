import { TextField, FileField, UploadDialog } from "../../components";
import { tablesPath, type SqlTable } from "./api";
import { t } from "./strings";

/** A managed table from a CSV or XLSX file: column names from its header row, types from its values. */
export function TableUpload({
  databaseId,
  organizationId,
  onClose,
  onUploaded,
}: {
  databaseId: string;
  organizationId: string;
  onClose: () => void;
  onUploaded: (t: SqlTable) => void;
}) {
  return (
    <UploadDialog
      title={t("addTable")}
      progressLabel={t("uploading")}
      path={tablesPath(databaseId)}
      organizationId={organizationId}
      onClose={onClose}
      onUploaded={(answer) => onUploaded(answer as SqlTable)}
      fields={() => (
        <>
          <FileField label={t("tableFile")} accept=".csv,.xlsx" hint={t("tableFileHint")} />
          <TextField label={t("tableName")} name="tableName" maxLength={63} hint={t("tableNameHint")} />
          <TextField label={t("description")} name="description" maxLength={10000} hint={t("tableDescriptionHint")} />
        </>
      )}
    />
  );
}
