import { useEffect, useState } from "preact/hooks";
import { Button } from "./button";
import { Dialog } from "./dialog";
import { ErrorAlert } from "./alert";
import { t } from "./strings";
import { problemOf } from "../api/client";

interface Props {
  title: string;
  message: string;
  /** The confirming button's text ("Delete", "Revoke"). */
  action: string;
  open: boolean;
  onClose: () => void;
  /** Runs on confirmation; the dialog closes when it resolves, and shows the API's or the network's error when it
   * throws. */
  onConfirm: () => Promise<void>;
}

/** Asks before something that cannot be undone. */
export function ConfirmDialog({ title, message, action, open, onClose, onConfirm }: Props) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  // Opened again (often for another row): the last refusal is not this one's.
  useEffect(() => {
    if (open) setError(null);
  }, [open]);
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      onClose();
    } catch (err) {
      setError(problemOf(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      title={title}
      open={open}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>{t("cancel")}</Button>
          <Button variant="danger" busy={busy} onClick={confirm}>
            {action}
          </Button>
        </>
      }
    >
      <p>{message}</p>
      <ErrorAlert error={error} />
    </Dialog>
  );
}
