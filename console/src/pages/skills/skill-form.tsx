import {
  fieldsOf,
  CheckList,
  FormDialog,
  ErrorAlert,
  Loading,
  TextAreaField,
  TextField,
  GroupPicker,
  pickedGroups,
  useResource,
  useSubmit,
} from "../../components";
import { getSkill, toolChoices, updateSkill, type Skill } from "./api";
import { t } from "./strings";

/** Every setting of a skill (its package's files stay): saved as one PATCH, the API's errors at their fields. */
export function SkillForm({
  id,
  organizationId,
  onClose,
  onSaved,
}: {
  id: string;
  organizationId: string;
  onClose: () => void;
  onSaved: (s: Skill) => void;
}) {
  const skill = useResource(() => getSkill(id), [id]);
  const tools = useResource(toolChoices, [organizationId]);
  const s = skill.data;
  const submitting = useSubmit(async (form) => {
    const text = (name: string) => String(form.get(name) ?? "");
    const saved = await updateSkill(id, {
      name: text("name"),
      description: text("description"),
      whenToUse: text("whenToUse"),
      instructions: text("instructions"),
      attachedToolIds: form.getAll("attachedToolIds").map(String),
      groups: pickedGroups(form),
    });
    onSaved(saved);
    onClose();
  });
  const { problem } = submitting;
  const err = (name: string) => problem?.field(name);
  const field = fieldsOf(s, t);
  return (
    // Nothing to save until the skill is read: the fields hold what the PATCH sends.
    <FormDialog title={t("editSkill")} submit={t("save")} submitDisabled={!s} submitting={submitting} onClose={onClose}>
      <ErrorAlert error={skill.error} />
      {!s ? (
        skill.loading && <Loading />
      ) : (
        <>
          <TextField {...field("name")} required maxLength={200} hint={t("nameHint")} />
          <TextAreaField {...field("description")} rows={2} required maxLength={10000} />
          <TextField {...field("whenToUse")} maxLength={2000} hint={t("whenToUseHint")} />
          <TextAreaField {...field("instructions")} rows={10} maxLength={200000} hint={t("instructionsHint")} />
          <CheckList
            legend={t("attachedTools")}
            hint={t("toolsHint")}
            name="attachedToolIds"
            choices={tools}
            chosen={s.attachedTools.map((tool) => ({ id: tool.id, name: tool.displayName }))}
            empty={tools.error ? t("toolsUnavailable") : t("noTools")}
          />
          <GroupPicker organizationId={organizationId} chosen={s.groups} error={err("groups")} />
        </>
      )}
    </FormDialog>
  );
}
