import { useState } from "preact/hooks";
import { problemOf } from "../../api/client";
import { Button, FormDialog, TextField, ErrorAlert, toast, useSubmit } from "../../components";
import { formatTime } from "../../i18n";
import { removeCredential, storeCredential, type Connector } from "./api";
import { t } from "./strings";

/** `Authorization: Bearer <token>` -> `Authorization`: the header the registry entry says it reads. */
const headerOf = (hint: string) => /^([A-Za-z0-9_-]+):/.exec(hint.trim())?.[1] ?? "Authorization";

interface Props {
  connector: Connector;
  authHint: string;
  /** When the user's credential was last stored; null: they hold none. */
  held: { updatedAt: string } | null;
  onClose: () => void;
  onChanged: () => void;
}

/**
 * The signed-in member's own credential for a connector: set or replaced (write-only, never shown
 * again), or removed. Conversations they start then call the server with it.
 */
export function CredentialDialog({ connector, authHint, held, onClose, onChanged }: Props) {
  const [removing, setRemoving] = useState(false);
  const [removeError, setRemoveError] = useState<unknown>(null);
  const submitting = useSubmit(async (form) => {
    const header = String(form.get("header") ?? "").trim();
    await storeCredential(connector.id, { headers: { [header]: String(form.get("value") ?? "").trim() } });
    toast(t("credentialSaved", { name: connector.displayName }));
    onChanged();
    onClose();
  });
  const { problem } = submitting;
  const remove = async () => {
    setRemoving(true);
    setRemoveError(null);
    try {
      await removeCredential(connector.id);
      toast(t("credentialRemoved", { name: connector.displayName }));
      onChanged();
      onClose();
    } catch (err) {
      setRemoveError(problemOf(err));
    } finally {
      setRemoving(false);
    }
  };
  const fieldError =
    problem && Object.entries(problem.errors).find(([k]) => k === "headers" || k.startsWith("headers."))?.[1][0];
  return (
    <FormDialog
      title={t("myCredentialFor", { name: connector.displayName })}
      submit={held ? t("replaceCredential") : t("saveCredential")}
      submitting={submitting}
      onClose={onClose}
      actions={
        held && (
          <Button variant="danger" busy={removing} onClick={remove}>
            {t("removeCredential")}
          </Button>
        )
      }
    >
      <p class="muted">{held ? t("credentialHeld", { at: formatTime(held.updatedAt) }) : t("credentialNone")}</p>
      <TextField
        label={t("credentialHeader")}
        name="header"
        required
        maxLength={100}
        pattern="[A-Za-z0-9_\-]+"
        defaultValue={headerOf(authHint)}
        spellcheck={false}
      />
      <TextField
        label={t("credentialValue")}
        name="value"
        type="password"
        autoComplete="off"
        required
        maxLength={8000}
        hint={`${authHint}. ${t("credentialWriteOnly")}`}
        error={fieldError ?? undefined}
      />
      <ErrorAlert error={removeError} />
    </FormDialog>
  );
}
