import { useState } from "preact/hooks";
import {
  fieldsOf,
  CheckboxField,
  SelectField,
  TextAreaField,
  TextField,
  FormDialog,
  useSubmit,
} from "../../components";
import { createConnector, updateConnector, type Connector, type ConnectorWrite, type RegistryEntry } from "./api";
import { jsonObject } from "./json-field";
import { t } from "./strings";

/** Enables a registry entry as a connector (or changes one): its URL placeholders and service-account headers
 * (write-only). */
export function ConnectorForm({
  connector,
  registry,
  onClose,
  onSaved,
}: {
  connector?: Connector;
  registry: RegistryEntry[];
  onClose: () => void;
  onSaved: (c: Connector) => void;
}) {
  const [entryId, setEntryId] = useState(connector?.mcpRegistryId ?? registry[0]?.id ?? "");
  const entry = registry.find((e) => e.id === entryId);
  const submitting = useSubmit(async (form) => {
    const text = (name: string) => String(form.get(name) ?? "").trim();
    const body: ConnectorWrite = {
      mcpRegistryId: entryId,
      displayName: text("displayName") || null,
      description: text("description") || null,
      isEnabled: !!form.get("isEnabled"),
    };
    if (entry?.urlVariables.length)
      body.urlVariables = Object.fromEntries(entry.urlVariables.map((v) => [v.name, text(`var-${v.name}`)]));
    const headers = jsonObject(text("authHeaders"), "authHeaders");
    if (headers) body.authHeaders = headers;
    else if (form.get("removeHeaders")) body.authHeaders = null;
    onSaved(connector ? await updateConnector(connector.id, body) : await createConnector(body));
    onClose();
  });
  const { problem } = submitting;
  const field = fieldsOf(connector, t);
  return (
    <FormDialog
      title={connector ? t("editConnector") : t("addConnector")}
      adding={!connector}
      submitting={submitting}
      onClose={onClose}
    >
      <SelectField
        label={t("registryEntry")}
        value={entryId}
        disabled={!!connector}
        onChange={(e) => setEntryId(e.currentTarget.value)}
        options={registry.map((e) => [e.id, e.name])}
        hint={entry?.description}
        error={problem?.field("mcpRegistryId")}
      />
      <TextField {...field("displayName")} maxLength={200} hint={t("defaultEntryName")} />
      <TextField {...field("description")} maxLength={10000} />
      {entry?.urlVariables.map((v) => (
        <TextField
          key={v.name}
          label={v.name}
          name={`var-${v.name}`}
          required
          defaultValue={connector?.urlVariables[v.name] ?? ""}
          hint={v.description}
          error={problem?.field(`urlVariables.${v.name}`) ?? problem?.field("urlVariables")}
        />
      ))}
      {entry && entry.authKind !== "none" && (
        <>
          <TextAreaField
            class="code"
            spellcheck={false}
            label={t("authHeaders")}
            name="authHeaders"
            rows={3}
            hint={`${entry.authHint}. ${connector?.hasAuthHeaders ? t("headersKept") : t("headersWriteOnly")}`}
          />
          {connector?.hasAuthHeaders && <CheckboxField label={t("removeHeaders")} name="removeHeaders" />}
        </>
      )}
      <CheckboxField
        label={t("enabled")}
        name="isEnabled"
        defaultChecked={connector?.isEnabled ?? true}
        hint={t("enabledHint")}
      />
    </FormDialog>
  );
}
