import type { TargetedEvent } from "preact";
import { useState } from "preact/hooks";
import { FormDialog, CheckboxField, SelectField, TextField, useSubmit } from "../../components";
import { MODEL_KINDS, createModel, updateModel, type Model, type ModelKind, type ModelWrite } from "./api";
import { presetsFor, type Preset } from "./presets";
import { t } from "./strings";

const PROVIDERS = ["openai_compatible", "local", "workers_ai"] as const;

/**
 * A text field whose value the form holds (a preset fills it): labelled with the string of its name, showing `value`
 * and setting it as typed.
 */
const held = (name: "name" | "modelName" | "baseUrl" | "dimensions", value: string, set: (value: string) => void) => ({
  label: t(name),
  name,
  value,
  onInput: (e: TargetedEvent<HTMLInputElement>) => set(e.currentTarget.value),
});

/** Adds a model (`model` absent; a preset may fill the form) or changes one; the API's field errors show at their
 * fields. */
export function ModelForm({
  model,
  open,
  onClose,
  onSaved,
}: {
  model?: Model;
  open: boolean;
  onClose: () => void;
  onSaved: (m: Model) => void;
}) {
  const [kind, setKind] = useState<ModelKind>(model?.kind ?? "llm");
  const [provider, setProvider] = useState<ModelWrite["provider"]>(model?.provider ?? "openai_compatible");
  const [preset, setPreset] = useState<Preset | null>(null);
  const [name, setName] = useState(model?.name ?? "");
  const [modelName, setModelName] = useState(model?.modelName ?? "");
  const [baseUrl, setBaseUrl] = useState(model?.baseUrl ?? "");
  const [dimensions, setDimensions] = useState(model?.dimensions ? String(model.dimensions) : "");
  const submitting = useSubmit(async (form) => {
    const text = (field: string) => String(form.get(field) ?? "").trim();
    const body: ModelWrite = { name: name.trim(), provider, modelName: modelName.trim() };
    if (provider === "openai_compatible") body.baseUrl = baseUrl.trim() || null;
    else if (model?.baseUrl) body.baseUrl = null;
    if (kind === "embedding") body.dimensions = dimensions.trim() ? Number(dimensions) : null;
    if (form.get("removeKey")) body.apiKey = null;
    else if (text("apiKey")) body.apiKey = text("apiKey");
    onSaved(model ? await updateModel(model, body) : await createModel(kind, body));
    onClose();
  });
  const { problem } = submitting;

  /** Fills the form from a preset: its endpoint and first model, and a name made of both unless one was typed. */
  const choose = (next: Preset | null, forKind = kind) => {
    const first = next?.models[forKind]?.[0];
    const suggested = (p: Preset | null, m: string) => (p ? (m ? `${p.label} ${m}` : p.label) : "");
    if (!name.trim() || name === suggested(preset, modelName)) setName(suggested(next, first?.name ?? ""));
    setPreset(next);
    if (!next) return;
    setProvider(next.provider);
    setBaseUrl(next.baseUrl);
    setModelName(first?.name ?? "");
    setDimensions(first?.dimensions ? String(first.dimensions) : "");
  };
  const presets = presetsFor(kind);
  const suggestions = preset?.models[kind] ?? [];
  return (
    <FormDialog
      title={model ? t("editModel") : t("addModel")}
      open={open}
      adding={!model}
      submitting={submitting}
      onClose={onClose}
    >
      {!model && (
        <SelectField
          label={t("kind")}
          value={kind}
          onChange={(e) => {
            const next = e.currentTarget.value as ModelKind;
            setKind(next);
            // A preset without models of the new kind is dropped; one with them gives its first.
            choose(preset && preset.models[next] !== undefined ? preset : null, next);
          }}
          options={MODEL_KINDS.map((k) => [k, t(k)])}
        />
      )}
      {!model && (
        <SelectField
          label={t("preset")}
          value={preset?.id ?? ""}
          hint={preset?.note ? t(preset.note) : t("presetHint")}
          onChange={(e) => choose(presets.find((p) => p.id === e.currentTarget.value) ?? null)}
          options={[["", t("presetNone")], ...presets.map((p): [string, string] => [p.id, p.label])]}
        />
      )}
      <TextField {...held("name", name, setName)} required maxLength={200} />
      <SelectField
        label={t("provider")}
        value={provider}
        onChange={(e) => setProvider(e.currentTarget.value as ModelWrite["provider"])}
        options={PROVIDERS.map((p) => [p, t(p)])}
        error={problem?.field("provider")}
      />
      <TextField
        {...held("modelName", modelName, setModelName)}
        required
        maxLength={200}
        list={suggestions.length > 1 ? "model-suggestions" : undefined}
        placeholder={preset?.id === "azure" ? t("azureDeployment") : undefined}
        hint={t("modelNameHint")}
      />
      {suggestions.length > 1 && (
        <datalist id="model-suggestions">
          {suggestions.map((m) => (
            <option key={m.name} value={m.name} />
          ))}
        </datalist>
      )}
      {provider === "openai_compatible" && (
        <>
          <TextField
            {...held("baseUrl", baseUrl, setBaseUrl)}
            type="url"
            required
            placeholder={preset?.placeholder}
            hint={t("baseUrlHint")}
          />
          <TextField
            label={t("apiKey")}
            name="apiKey"
            type="password"
            autoComplete="off"
            hint={
              model?.hasApiKey
                ? `${t("apiKeyKeep")} ${model.apiKeyPreview ?? ""}`
                : preset?.keyless
                  ? t("apiKeyLocal")
                  : t("apiKeyHint")
            }
          />
          {model?.hasApiKey && <CheckboxField label={t("removeKey")} name="removeKey" />}
        </>
      )}
      {kind === "embedding" && (
        <TextField
          {...held("dimensions", dimensions, setDimensions)}
          type="number"
          min={1}
          max={8192}
          hint={t("dimensionsHint")}
        />
      )}
    </FormDialog>
  );
}
