import { useState } from "preact/hooks";
import { Button, ConfirmDialog, toast } from "../../components";
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
  const [deleting, setDeleting] = useState(false);
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
            <Button variant="danger" onClick={() => setDeleting(true)}>
              {t("deleteBase")}
            </Button>
          )}
        </div>
      )}
      <ConfirmDialog
        open={deleting}
        title={t("deleteBase")}
        message={t("deleteBaseMessage", { name: kb.name })}
        action={t("delete")}
        onClose={() => setDeleting(false)}
        onConfirm={async () => {
          await deleteKnowledgeBase(kb.id);
          toast(t("deleted", { name: kb.name }));
          navigate("/knowledge-bases");
        }}
      />
    </section>
  );
}
