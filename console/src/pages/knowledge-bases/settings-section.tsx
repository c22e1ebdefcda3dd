import { useState } from "preact/hooks";
import { Button, toast, useRemoval } from "../../components";
import { navigate } from "../../shell/router";
import { deleteKnowledgeBase, type KnowledgeBase } from "./api";
import { SettingsForm } from "./settings-form";
import { t } from "./strings";

/** The base's settings in place: saved with one button; deleting it goes back to the list. */
export function SettingsSection({
  kb,
  organizationId,
  editable,
  onSaved,
}: {
  kb: KnowledgeBase;
  organizationId: string;
  editable: boolean;
  onSaved: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const removal = useRemoval<KnowledgeBase>({
    title: t("deleteBase"),
    message: (base) => t("deleteBaseMessage", { name: base.name }),
    run: (base) => deleteKnowledgeBase(base.id),
    done: (base) => t("deleted", { name: base.name }),
    after: async () => navigate("/knowledge-bases"),
  });
  return (
    <section class="section" aria-labelledby="kb-settings-title">
      <h2 id="kb-settings-title" class="sr-only">
        {t("tabSettings")}
      </h2>
      <SettingsForm
        kb={kb}
        formId="kb-settings"
        organizationId={organizationId}
        readOnly={!editable}
        onBusy={setBusy}
        onSaved={(saved) => {
          toast(t("saved", { name: saved.name }));
          onSaved();
        }}
      />
      {editable && (
        <div class="kb-actions">
          <Button type="submit" form="kb-settings" variant="primary" busy={busy}>
            {t("save")}
          </Button>
          {kb.canDelete && (
            <Button variant="danger" onClick={() => removal.ask(kb)}>
              {t("deleteBase")}
            </Button>
          )}
        </div>
      )}
      {removal.dialog}
    </section>
  );
}
