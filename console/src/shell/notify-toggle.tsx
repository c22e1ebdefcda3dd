import { useState } from "preact/hooks";
import { Button } from "../components/button";
import { chooseNotify, notifyChosen, notifyPermission, notifySupported } from "./notifications";
import { t } from "./notify-strings";

/**
 * "Notify me": opts in to browser notifications and a sound (the browser's permission is asked on
 * this click only, never on load); remembered by this browser.
 */
export function NotifyToggle() {
  const [busy, setBusy] = useState(false);
  if (!notifySupported) return <span class="muted small">{t("notifyUnsupported")}</span>;
  const on = notifyChosen.value;
  const toggle = async () => {
    setBusy(true);
    try {
      await chooseNotify(!on);
    } finally {
      setBusy(false);
    }
  };
  return (
    <span class="notify-toggle">
      <Button variant="quiet" busy={busy} aria-pressed={on} title={t("notifyHint")} onClick={toggle}>
        {on ? t("notifyOn") : t("notify")}
      </Button>
      {!on && notifyPermission.value === "denied" && (
        <span class="muted small" role="status">
          {t("notifyDenied")}
        </span>
      )}
    </span>
  );
}
