import { Notice } from "./alert";
import { Button } from "./button";
import { CopyButton } from "./copy-button";
import { Dialog } from "./dialog";
import { TextField } from "./field";
import { t } from "./strings";

/**
 * A secret the API shows once (a new API key, a webhook's token, an identity secret): a warning
 * that it will not be shown again, the value selected on focus, and a copy button.
 */
export function SecretDialog({
  title,
  warning,
  label,
  secret,
  onClose,
}: {
  title: string;
  warning: string;
  label: string;
  secret: string;
  onClose: () => void;
}) {
  return (
    <Dialog
      title={title}
      open
      onClose={onClose}
      footer={
        <Button variant="primary" onClick={onClose}>
          {t("done")}
        </Button>
      }
    >
      <Notice tone="warning">{warning}</Notice>
      <div class="secret">
        <TextField label={label} value={secret} readOnly spellcheck={false} onFocus={(e) => e.currentTarget.select()} />
        <CopyButton text={secret} />
      </div>
    </Dialog>
  );
}
