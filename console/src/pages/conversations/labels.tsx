import { useState } from "preact/hooks";
import { choicesOf } from "../../api/choices";
import { ErrorAlert, announce, Button, CheckList, FormDialog, useResource } from "../../components";
import { organizationId } from "../../shell/session";
import { type Conversation, setLabels } from "./api";
import { t } from "./strings";

type LabelRef = Conversation["labels"][number];

/** One label: its name beside a dot of its colour (the colour only repeats what the name says). */
export function LabelChip({ label }: { label: Pick<LabelRef, "name" | "color"> }) {
  return (
    <span class="label-chip">
      <span class="label-dot" style={{ background: label.color }} aria-hidden="true" />
      {label.name}
    </span>
  );
}

/** A conversation's labels, as a list a screen reader names. */
export function LabelChips({ labels }: { labels: LabelRef[] }) {
  if (!labels.length) return null;
  return (
    <ul class="chip-row" aria-label={t("labels")}>
      {labels.map((l) => (
        <li key={l.id}>
          <LabelChip label={l} />
        </li>
      ))}
    </ul>
  );
}

/** The button that opens the conversation's label choice. */
export function LabelPicker({
  conversation,
  onChanged,
}: {
  conversation: Conversation;
  onChanged: (c: Conversation) => void;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>{t("editLabels")}</Button>
      {open && <LabelDialog conversation={conversation} onChanged={onChanged} onClose={() => setOpen(false)} />}
    </>
  );
}

/** The labels of the conversation, ticked in a dialog and saved at once (PUT /conversations/{id}/labels/). */
function LabelDialog({
  conversation,
  onChanged,
  onClose,
}: {
  conversation: Conversation;
  onChanged: (c: Conversation) => void;
  onClose: () => void;
}) {
  const choices = useResource(() => choicesOf("labels", organizationId.value!), []);
  const save = async (form: FormData) => {
    const saved = await setLabels(conversation.id, form.getAll("labelIds").map(String));
    onChanged(saved);
    announce(t("labelsSaved"));
    onClose();
  };
  return (
    <FormDialog title={t("labelsTitle")} submit={t("saveLabels")} save={save} onClose={onClose}>
      <ErrorAlert error={choices.error} />
      <CheckList
        legend={t("labels")}
        name="labelIds"
        choices={choices}
        chosen={conversation.labels.map((l) => ({ id: l.id, name: l.name }))}
        empty={t("noLabels")}
      />
    </FormDialog>
  );
}
