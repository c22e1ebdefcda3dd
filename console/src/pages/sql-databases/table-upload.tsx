import { useState } from "preact/hooks";
import { ApiProblem } from "../../api/client";
import { Button } from "../../components/button";
import { Dialog } from "../../components/dialog";
import { TextField } from "../../components/field";
import { ErrorAlert } from "../../components/alert";
import { UploadProgress, uploadForm } from "../../components/upload";
import { t as common } from "../../components/strings";
import { tablesPath, type SqlTable } from "./api";
import { t } from "./strings";

/** A managed table from a CSV or XLSX file: column names from its header row, types from its values. */
export function TableUpload({ databaseId, organizationId, onClose, onUploaded }: { databaseId: string; organizationId: string; onClose: () => void; onUploaded: (t: SqlTable) => void }) {
  const [share, setShare] = useState<number | null>(null);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    for (const name of ["tableName", "description"]) if (!String(form.get(name) ?? "").trim()) form.delete(name);
    setProblem(null);
    setShare(0);
    try {
      onUploaded((await uploadForm(tablesPath(databaseId), form, { organizationId, onProgress: setShare })) as SqlTable);
      onClose();
    } catch (err) {
      setShare(null);
      setProblem(err as ApiProblem);
    }
  };
  return (
    <Dialog
      title={t("addTable")}
      open
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>{common("cancel")}</Button>
          <Button type="submit" form="table-upload" variant="primary" busy={share !== null}>{t("upload")}</Button>
        </>
      }
    >
      <form id="table-upload" onSubmit={submit} class="stack">
        <TextField label={t("tableFile")} name="file" type="file" accept=".csv,.xlsx" required hint={t("tableFileHint")} error={problem?.field("file")} />
        <TextField label={t("tableName")} name="tableName" maxLength={63} hint={t("tableNameHint")} error={problem?.field("tableName")} />
        <TextField label={t("description")} name="description" maxLength={10000} hint={t("tableDescriptionHint")} error={problem?.field("description")} />
        <UploadProgress share={share} label={t("uploading")} />
        {problem && !Object.keys(problem.errors).length && <ErrorAlert error={problem} />}
      </form>
    </Dialog>
  );
}
