import {
  FormDialog,
  SelectField,
  TextField,
  toast,
  modelOption,
  useResource,
  useSubmit,
  TextAreaField,
} from "../../components";
import { navigate } from "../../shell/router";
import { createAssistant, fieldMessage, languageModels } from "./api";
import { t } from "./strings";

/** A new assistant from its name, model and instructions; the rest is set on its page, where this leads. */
export function CreateAssistant({ onClose }: { onClose: () => void }) {
  const models = useResource(languageModels, []);
  const submitting = useSubmit(async (form) => {
    const text = (name: string) => String(form.get(name) ?? "").trim();
    const created = await createAssistant({
      name: text("name"),
      largeLanguageModel: text("largeLanguageModel"),
      instructions: text("instructions") || null,
    });
    toast(t("created", { name: created.name }));
    onClose();
    navigate(`/assistants/${created.id}`);
  });
  const { problem } = submitting;
  const options = (models.data?.results ?? []).map((m) => modelOption(m));
  return (
    <FormDialog
      title={t("newAssistant")}
      submit={t("create")}
      submitDisabled={!options.some(([, , off]) => !off)}
      submitting={submitting}
      onClose={onClose}
      noValidate
    >
      <TextField
        label={t("name")}
        name="name"
        required
        maxLength={200}
        autoFocus
        error={fieldMessage(problem, "name")}
      />
      <SelectField
        label={t("llm")}
        name="largeLanguageModel"
        options={options}
        hint={t("llmHint")}
        error={
          fieldMessage(problem, "largeLanguageModel") ??
          (models.error ? String((models.error as Error).message) : undefined)
        }
      />
      <TextAreaField
        label={t("instructions")}
        name="instructions"
        hint={t("instructionsHint")}
        error={fieldMessage(problem, "instructions")}
      />
    </FormDialog>
  );
}
