import { useState } from "preact/hooks";
import { problemOf, type ApiProblem } from "../../api/client";
import { Button, FormError, TextField, toast, useRemoval, type Resource } from "../../components";
import { createLabel, deleteLabel, type KnowledgeBase, type Label } from "./api";
import { t } from "./strings";

/** The base's labels as chips, each deletable, and a field to add one (managers only). */
export function LabelsBar({
  kb,
  labels,
  editable,
}: {
  kb: KnowledgeBase;
  labels: Resource<Label[]>;
  editable: boolean;
}) {
  const [name, setName] = useState("");
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const add = async (event: SubmitEvent) => {
    event.preventDefault();
    setProblem(null);
    try {
      const label = await createLabel(kb.id, name.trim());
      toast(t("labelAdded", { name: label.name }));
      setName("");
      await labels.reload();
    } catch (err) {
      setProblem(problemOf(err));
    }
  };
  // Asked first, as every delete is: files and FAQs lose the label, and a second press while the first ran deleted
  // it twice (a "Label not found." after the first).
  const removal = useRemoval<Label>({
    title: t("deleteLabel"),
    message: (label) => t("deleteLabelMessage", { name: label.name }),
    run: (label) => deleteLabel(kb.id, label.id),
    done: (label) => t("labelDeleted", { name: label.name }),
    after: labels.reload,
  });
  return (
    <div class="kb-labels" role="group" aria-label={t("labels")}>
      <ul class="kb-chips">
        {(labels.data ?? []).map((l) => (
          <li key={l.id} class="kb-chip">
            {l.name}
            {editable && (
              <button
                type="button"
                class="btn quiet icon small"
                aria-label={t("deleteLabelNamed", { name: l.name })}
                onClick={() => removal.ask(l)}
              >
                <span aria-hidden="true">×</span>
              </button>
            )}
          </li>
        ))}
        {labels.data?.length === 0 && <li class="muted small">{t("noLabels")}</li>}
      </ul>
      {editable && <FormError problem={problem} />}
      {editable && removal.dialog}
      {editable && (
        <form class="kb-inline-form" onSubmit={add}>
          <TextField
            label={t("labelName")}
            value={name}
            required
            maxLength={200}
            onInput={(e) => setName(e.currentTarget.value)}
            error={problem?.field("name")}
          />
          <Button type="submit">{t("addLabel")}</Button>
        </form>
      )}
    </div>
  );
}
