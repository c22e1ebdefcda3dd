import type { ComponentChildren } from "preact";
import { useId, useState } from "preact/hooks";
import { ApiProblem, problemOf } from "../../api/client";
import {
  Button,
  ErrorAlert,
  FormError,
  toast,
  useSubmit,
  modelOption,
  CheckboxField,
  SelectField,
  TextField,
  TextAreaField,
} from "../../components";
import {
  AGENT_MODES,
  DATABASE_TYPES,
  OUTPUT_MODES,
  REPLY_MODES,
  fieldMessage,
  updateAssistant,
  type Assistant,
  type Choices,
  type IdName,
  type ModelChoice,
} from "./api";
import { draftOf, patchOf, type Draft } from "./draft";
import { RefPicker } from "./ref-picker";
import { t } from "./strings";

type Options = [string, string, boolean][];
/** The current model first when the lists no longer hold it, so the select shows the truth; an unavailable model is
 * disabled, with its reason. */
const withCurrent = (items: ModelChoice[], current: IdName | null): Options =>
  (current && !items.some((i) => i.id === current.id) ? [current, ...items] : items).map((m) => modelOption(m));

/** Every writable field of the assistant, saved as one PATCH of what changed; the API's errors show at their fields. */
export function AssistantForm({
  assistant,
  choices,
  onSaved,
}: {
  assistant: Assistant;
  choices: Choices;
  onSaved: (a: Assistant) => void;
}) {
  const [initial, setInitial] = useState(() => draftOf(assistant));
  const [draft, setDraft] = useState(initial);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const setHandoff = (change: Partial<Draft["handoff"]>) =>
    setDraft((d) => ({ ...d, handoff: { ...d.handoff, ...change } }));
  const error = (key: string) => fieldMessage(problem, key);
  /** A text field or select of the draft: its value, its input and the API's message, all under `key`. */
  const text = (key: keyof Draft) => ({
    value: draft[key] as string,
    onInput: (e: Event) => set(key, (e.currentTarget as HTMLInputElement).value as never),
    error: error(key),
  });
  /** A list of references of the draft (`[{id}]`), picked from `choices` of the same name. */
  const refs = (key: "knowledgeBases" | "tools" | "skills" | "groups") => ({
    options: choices[key],
    value: draft[key],
    onChange: (value: IdName[]) => set(key, value),
    error: error(key),
  });
  /** A text field of the handoff settings: its value, its input and the API's message on `handoff.<key>`. */
  const handoffText = (key: Exclude<keyof Draft["handoff"], "enabled">) => ({
    value: draft.handoff[key],
    onInput: (e: Event) => setHandoff({ [key]: (e.currentTarget as HTMLInputElement).value }),
    error: error(`handoff.${key}`),
  });
  const dirty = JSON.stringify(draft) !== JSON.stringify(initial);

  const { busy, problem, submit, clear } = useSubmit(async () => {
    const { patch, invalid } = patchOf(initial, draft);
    if (invalid.length) {
      toast(t("fixFields"), "error");
      throw new ApiProblem(
        400,
        t("fixFields"),
        "invalid",
        Object.fromEntries(invalid.map((k) => [k, [t("invalidJson")]])),
      );
    }
    try {
      const saved = await updateAssistant(assistant.id, patch);
      const next = draftOf(saved);
      setInitial(next);
      setDraft(next);
      onSaved(saved);
      toast(t("saved", { name: saved.name }));
    } catch (err) {
      const p = problemOf(err);
      // Seen beside the Save button too: the fields may be a long way up this form.
      toast(Object.keys(p.errors).length ? t("fixFields") : p.detail, "error");
      throw err;
    }
  });
  // Errors of no field of the form (there should be none) still show, above the buttons.
  const unshown = problem && Object.keys(problem.errors).filter((k) => !(k.split(".")[0] in initial));

  return (
    <form class="assistant-form stack" onSubmit={submit} aria-labelledby="settings-title" noValidate>
      <h2 id="settings-title">{t("settings")}</h2>
      <FormError problem={problem} />
      <Section title={t("basics")}>
        <TextField label={t("name")} required maxLength={200} {...text("name")} />
        <TextAreaField label={t("instructions")} rows={6} hint={t("instructionsHint")} {...text("instructions")} />
      </Section>
      <Section title={t("modelsSection")}>
        <SelectField
          label={t("llm")}
          {...text("largeLanguageModel")}
          options={withCurrent(choices.llms, assistant.largeLanguageModel)}
        />
        <SelectField
          label={t("fallbackModel")}
          {...text("fallbackLargeLanguageModel")}
          options={[["", t("none")], ...withCurrent(choices.llms, assistant.fallbackLargeLanguageModel)]}
          hint={t("fallbackModelHint")}
        />
        <SelectField
          label={t("embeddingModel")}
          {...text("embeddingModel")}
          options={[["", t("none")], ...withCurrent(choices.embeddings, assistant.embeddingModel)]}
        />
        <SelectField
          label={t("rerankerModel")}
          {...text("rerankerModel")}
          options={[["", t("none")], ...withCurrent(choices.rerankers, assistant.rerankerModel)]}
        />
      </Section>
      <Section title={t("replies")}>
        <SelectField
          label={t("replyMode")}
          {...text("replyMode")}
          options={REPLY_MODES.map((m) => [m, t(`mode_${m}`)])}
          hint={t(`modeHint_${draft.replyMode}`)}
        />
        {(draft.replyMode === "template" || draft.replyMode === "hybrid") && (
          <TextAreaField label={t("template")} hint={t("templateHint")} {...text("template")} />
        )}
        <TextAreaField
          label={t("unanswerable")}
          rows={2}
          hint={t("unanswerableHint")}
          {...text("unanswerableTemplate")}
        />
        <SelectField
          label={t("agentMode")}
          {...text("agentMode")}
          options={AGENT_MODES.map((m) => [m, t(`agent_${m}`)])}
        />
        <TextField
          label={t("chunks")}
          type="number"
          min={1}
          max={1000}
          hint={t("chunksHint")}
          {...text("numberOfRetrievedChunks")}
        />
        <CheckboxField
          label={t("inlineCitations")}
          checked={draft.enableInLineCitations}
          onChange={(e) => set("enableInLineCitations", e.currentTarget.checked)}
          error={error("enableInLineCitations")}
        />
      </Section>
      <Section title={t("handoffSection")}>
        <CheckboxField
          label={t("handoffEnabled")}
          hint={t("handoffEnabledHint")}
          checked={draft.handoff.enabled}
          onChange={(e) => setHandoff({ enabled: e.currentTarget.checked })}
          error={error("handoff.enabled")}
        />
        <TextField
          label={t("handoffAfter")}
          type="number"
          min={0}
          max={20}
          hint={t("handoffAfterHint")}
          {...handoffText("afterUnanswered")}
        />
        <TextAreaField
          label={t("handoffMessage")}
          rows={2}
          hint={t("handoffMessageHint")}
          {...handoffText("message")}
        />
        <TextAreaField
          label={t("handoffOutsideHours")}
          rows={2}
          hint={t("handoffOutsideHoursHint")}
          {...handoffText("outsideHoursMessage")}
        />
      </Section>
      <Section title={t("output")}>
        <SelectField
          label={t("outputMode")}
          {...text("outputMode")}
          options={OUTPUT_MODES.map((m) => [m, t(`output_${m}`)])}
        />
        {(draft.outputMode === "json_schema" || draft.rawOutputFormat) && (
          <TextAreaField
            label={t("outputSchema")}
            class="code"
            rows={8}
            spellcheck={false}
            hint={t("outputSchemaHint")}
            {...text("rawOutputFormat")}
          />
        )}
      </Section>
      <Section title={t("knowledgeAndTools")}>
        <RefPicker legend={t("knowledgeBases")} {...refs("knowledgeBases")} />
        <RefPicker legend={t("tools")} hint={t("toolsHint")} {...refs("tools")} />
        <RefPicker legend={t("skills")} hint={t("toolsHint")} {...refs("skills")} />
      </Section>
      <Section title={t("access")}>
        <RefPicker legend={t("groups")} hint={t("groupsHint")} {...refs("groups")} />
        <CheckboxField
          label={t("evaluation")}
          hint={t("evaluationHint")}
          checked={draft.enableEvaluation}
          onChange={(e) => set("enableEvaluation", e.currentTarget.checked)}
          error={error("enableEvaluation")}
        />
      </Section>
      <Section title={t("database")}>
        <SelectField
          label={t("databaseType")}
          {...text("databaseType")}
          options={[["", t("none")], ...DATABASE_TYPES.map((d): [string, string] => [d, d])]}
        />
        <TextField
          label={t("databaseUrl")}
          spellcheck={false}
          autoComplete="off"
          hint={t("databaseUrlHint")}
          {...text("databaseUrl")}
        />
        <TextAreaField
          label={t("includeTables")}
          class="code"
          spellcheck={false}
          hint={t("includeTablesHint")}
          {...text("includeTables")}
        />
      </Section>
      <Section title={t("advanced")}>
        <TextField label={t("rag")} spellcheck={false} hint={t("idHint")} {...text("rag")} />
        <TextField label={t("builtInWorkflow")} spellcheck={false} hint={t("idHint")} {...text("builtInWorkflow")} />
        <p class="muted small">{t("wordsUsed", { n: assistant.totalWordsCount })}</p>
      </Section>
      {problem && unshown!.length > 0 && <ErrorAlert error={problem} />}
      <div class="form-actions">
        <Button type="submit" variant="primary" busy={busy}>
          {t("save")}
        </Button>
        <Button disabled={!dirty || busy} onClick={() => (setDraft(initial), clear())}>
          {t("discard")}
        </Button>
      </div>
    </form>
  );
}

function Section({ title, children }: { title: string; children: ComponentChildren }) {
  const id = useId();
  return (
    <section class="form-section stack" aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      {children}
    </section>
  );
}
