import { useState } from "preact/hooks";
import { Button } from "../../components/button";
import { Dialog } from "../../components/dialog";
import { CheckboxField, SelectField, TextField } from "../../components/field";
import { useSubmit } from "../../components/use-submit";
import { ErrorAlert } from "../../components/alert";
import { t as common } from "../../components/strings";
import { MODEL_KINDS, createModel, updateModel, type Model, type ModelKind, type ModelWrite } from "./model-api";
import { t } from "./strings";

const PROVIDERS = ["openai_compatible", "local", "workers_ai"] as const;

/** Adds a model (`model` absent) or changes one; the API's field errors show at their fields. */
export function ModelForm({ model, open, onClose, onSaved }: { model?: Model; open: boolean; onClose: () => void; onSaved: (m: Model) => void }) {
  const [kind, setKind] = useState<ModelKind>(model?.kind ?? "llm");
  const [provider, setProvider] = useState<ModelWrite["provider"]>(model?.provider ?? "openai_compatible");
  const { busy, problem, submit } = useSubmit(async (form) => {
    const text = (name: string) => String(form.get(name) ?? "").trim();
    const body: ModelWrite = { name: text("name"), provider, modelName: text("modelName") };
    if (provider === "openai_compatible") body.baseUrl = text("baseUrl") || null;
    else if (model?.baseUrl) body.baseUrl = null;
    if (kind === "embedding") body.dimensions = text("dimensions") ? Number(text("dimensions")) : null;
    if (form.get("removeKey")) body.apiKey = null;
    else if (text("apiKey")) body.apiKey = text("apiKey");
    onSaved(model ? await updateModel(model, body) : await createModel(kind, body));
    onClose();
  });

  const formId = model ? `model-form-${model.id}` : "model-form-new";
  return (
    <Dialog
      title={model ? t("editModel") : t("addModel")}
      open={open}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>{common("cancel")}</Button>
          <Button type="submit" form={formId} variant="primary" busy={busy}>{model ? t("save") : t("add")}</Button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} class="stack">
        {!model && (
          <SelectField label={t("kind")} value={kind} onChange={(e) => setKind(e.currentTarget.value as ModelKind)} options={MODEL_KINDS.map((k) => [k, t(k)])} />
        )}
        <TextField label={t("name")} name="name" required maxLength={200} defaultValue={model?.name} error={problem?.field("name")} />
        <SelectField
          label={t("provider")}
          value={provider}
          onChange={(e) => setProvider(e.currentTarget.value as ModelWrite["provider"])}
          options={PROVIDERS.map((p) => [p, t(p)])}
          error={problem?.field("provider")}
        />
        <TextField label={t("modelName")} name="modelName" required maxLength={200} defaultValue={model?.modelName} hint={t("modelNameHint")} error={problem?.field("modelName")} />
        {provider === "openai_compatible" && (
          <>
            <TextField label={t("baseUrl")} name="baseUrl" type="url" required defaultValue={model?.baseUrl ?? ""} hint={t("baseUrlHint")} error={problem?.field("baseUrl")} />
            <TextField
              label={t("apiKey")}
              name="apiKey"
              type="password"
              autoComplete="off"
              hint={model?.hasApiKey ? `${t("apiKeyKeep")} ${model.apiKeyPreview ?? ""}` : t("apiKeyHint")}
              error={problem?.field("apiKey")}
            />
            {model?.hasApiKey && <CheckboxField label={t("removeKey")} name="removeKey" />}
          </>
        )}
        {kind === "embedding" && (
          <TextField label={t("dimensions")} name="dimensions" type="number" min={1} max={8192} defaultValue={model?.dimensions ?? ""} hint={t("dimensionsHint")} error={problem?.field("dimensions")} />
        )}
        {problem && !Object.keys(problem.errors).length && <ErrorAlert error={problem} />}
      </form>
    </Dialog>
  );
}
