import { useState } from "preact/hooks";
import {
  fieldsOf,
  CheckList,
  pickedIds,
  CheckboxField,
  SelectField,
  TextAreaField,
  TextField,
  GroupPicker,
  pickedGroups,
  useResource,
  useSubmit,
  FormDialog,
} from "../../components";
import {
  assistantChoices,
  createDatabase,
  updateDatabase,
  type SqlDatabase,
  type SqlDatabaseItem,
  type SqlDatabaseWrite,
} from "./api";
import { t } from "./strings";

const TYPES = ["managed", "postgresql"] as const;
type FormType = SqlDatabaseWrite["databaseType"];

/**
 * Adds a managed database (tables from CSV or XLSX files) or a PostgreSQL one, or changes one
 * (`database`): every setting but its type. The connection string is write-only: left empty, the
 * stored one stays. The API's errors show at their fields.
 */
export function DatabaseForm({
  database,
  organizationId,
  onClose,
  onSaved,
}: {
  database?: SqlDatabase | SqlDatabaseItem;
  organizationId: string;
  onClose: () => void;
  onSaved: (d: SqlDatabase) => void;
}) {
  const [type, setType] = useState<FormType>(database?.databaseType ?? "managed");
  const assistants = useResource(() => assistantChoices(organizationId), [organizationId]);
  const external = type !== "managed";
  const submitting = useSubmit(async (form) => {
    const text = (name: string) => String(form.get(name) ?? "").trim();
    const body: SqlDatabaseWrite = {
      name: text("name"),
      description: text("description"),
      databaseType: type,
      isActive: !!form.get("isActive"),
      chatbots: pickedIds(form, "chatbots"),
      groups: pickedGroups(form),
    };
    if (external) {
      if (text("databaseUrl")) body.databaseUrl = text("databaseUrl");
      const tables = text("includeTables")
        .split(/[\s,]+/)
        .filter(Boolean);
      body.includeTables = tables.length ? { tables } : null;
    }
    onSaved(database ? await updateDatabase(database.id, body) : await createDatabase(body));
    onClose();
  });
  const { problem } = submitting;
  const err = (name: string) => problem?.field(name);
  const field = fieldsOf(database, t);
  return (
    <FormDialog
      title={database ? t("editDatabase") : t("addDatabase")}
      adding={!database}
      submitting={submitting}
      onClose={onClose}
    >
      <TextField {...field("name")} required maxLength={200} />
      <TextField {...field("description")} maxLength={10000} hint={t("descriptionHint")} />
      {database ? (
        <p class="small">
          {t("databaseType")}: {t(`type_${database.databaseType}`)} <span class="muted">({t("typeFixed")})</span>
        </p>
      ) : (
        <SelectField
          label={t("databaseType")}
          value={type}
          onChange={(e) => setType(e.currentTarget.value as FormType)}
          options={TYPES.map((k) => [k, t(`type_${k}`)])}
          hint={t(`typeHint_${type as (typeof TYPES)[number]}`)}
        />
      )}
      {external && (
        <TextField
          label={t("databaseUrl")}
          name="databaseUrl"
          type="password"
          autoComplete="off"
          required={!database}
          placeholder={database?.databaseUrl ?? undefined}
          hint={database ? t("databaseUrlKeepHint") : t("databaseUrlHint")}
        />
      )}
      {external && (
        <TextAreaField
          label={t("includeTables")}
          name="includeTables"
          rows={2}
          defaultValue={database?.includeTables?.tables.join("\n") ?? ""}
          hint={t("includeTablesHint")}
        />
      )}
      <CheckboxField
        label={t("active")}
        name="isActive"
        defaultChecked={database?.isActive ?? true}
        hint={t("activeHint")}
      />
      <CheckList
        legend={t("assistants")}
        hint={t("assistantsHint")}
        name="chatbots"
        choices={assistants}
        chosen={database?.chatbots}
        empty={assistants.error || assistants.data === null ? t("assistantsUnavailable") : t("noAssistants")}
      />
      <GroupPicker organizationId={organizationId} chosen={database?.groups} error={err("groups")} />
    </FormDialog>
  );
}
