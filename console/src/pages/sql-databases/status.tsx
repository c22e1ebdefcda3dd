import { t } from "./strings";

/** A database's connection status, and whether text-to-SQL skips it. */
export function StatusBadge({ status, active }: { status: string; active: boolean }) {
  const tone = status === "connected" ? "ok" : status === "failed" ? "failed" : "muted";
  return (
    <>
      <span class={`status ${tone}`}>{t(`status_${status}` as "status_connected")}</span>
      {!active && <span class="badge">{t("inactive")}</span>}
    </>
  );
}
