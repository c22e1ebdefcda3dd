import { useState } from "preact/hooks";
import { Button } from "../../components/button";
import { Dialog } from "../../components/dialog";
import { CheckboxField, SelectField, TextField } from "../../components/field";
import { ErrorAlert } from "../../components/alert";
import { GroupPicker, pickedGroups } from "../../components/group-picker";
import { useSubmit } from "../../components/use-submit";
import { t as common } from "../../components/strings";
import { createDatabase, type SqlDatabase, type SqlDatabaseWrite } from "./api";
import { t } from "./strings";

const TYPES = ["managed", "postgresql"] as const;

/** Adds a managed database (tables from CSV or XLSX files) or a PostgreSQL one (its connection string, write-only). */
export function DatabaseForm({ organizationId, onClose, onSaved }: { organizationId: string; onClose: () => void; onSaved: (d: SqlDatabase) => void }) {
  const [type, setType] = useState<(typeof TYPES)[number]>("managed");
  const { busy, problem, submit } = useSubmit(async (form) => {
    const text = (name: string) => String(form.get(name) ?? "").trim();
    const body: SqlDatabaseWrite = { name: text("name"), description: text("description"), databaseType: type, isActive: !!form.get("isActive"), groups: pickedGroups(form) };
    if (type !== "managed") body.databaseUrl = text("databaseUrl");
    onSaved(await createDatabase(body));
    onClose();
  });
  return (
    <Dialog
      title={t("addDatabase")}
      open
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>{common("cancel")}</Button>
          <Button type="submit" form="database-form" variant="primary" busy={busy}>{t("add")}</Button>
        </>
      }
    >
      <form id="database-form" onSubmit={submit} class="stack">
        <TextField label={t("name")} name="name" required maxLength={200} error={problem?.field("name")} />
        <TextField label={t("description")} name="description" maxLength={10000} hint={t("descriptionHint")} error={problem?.field("description")} />
        <SelectField label={t("databaseType")} value={type} onChange={(e) => setType(e.currentTarget.value as typeof type)} options={TYPES.map((k) => [k, t(`type_${k}`)])} hint={t(`typeHint_${type}`)} />
        {type !== "managed" && (
          <TextField label={t("databaseUrl")} name="databaseUrl" type="password" autoComplete="off" required hint={t("databaseUrlHint")} error={problem?.field("databaseUrl")} />
        )}
        <CheckboxField label={t("active")} name="isActive" defaultChecked hint={t("activeHint")} />
        <GroupPicker organizationId={organizationId} error={problem?.field("groups")} />
        {problem && !Object.keys(problem.errors).length && <ErrorAlert error={problem} />}
      </form>
    </Dialog>
  );
}
