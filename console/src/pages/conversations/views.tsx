import { useEffect, useState } from "preact/hooks";
import { session } from "../../shell/session";
import type { Conversation } from "./api";
import { t } from "./strings";

/** The inbox's views: everything (with the filters), mine, unassigned, waiting for a person (longest first). */
export const VIEWS = ["", "mine", "unassigned", "waiting"] as const;
export type View = (typeof VIEWS)[number];

const viewName = (v: View) => t(v ? `view_${v}` : "view_all");

/** The views as a segmented control (buttons that say which one is on). */
export function ViewSwitch({ value, onChange }: { value: string; onChange: (v: View) => void }) {
  return (
    <div class="segmented inbox-views" role="group" aria-label={t("views")}>
      {VIEWS.map((v) => (
        <button
          key={v}
          type="button"
          class="btn"
          aria-pressed={value === v}
          data-view={v || "all"}
          onClick={() => onChange(v)}
        >
          {viewName(v)}
        </button>
      ))}
    </div>
  );
}

/** Whether a conversation (as a live event carries it) belongs in `view` for the signed-in member. */
export function inView(c: { status: string; assignee: { id: string } | null }, view: string): boolean {
  if (view === "mine") return c.assignee?.id === session.value?.user.id && c.status !== "resolved";
  if (view === "unassigned") return !c.assignee && c.status !== "resolved";
  if (view === "waiting") return c.status === "queued";
  return true;
}

/** The list's order: newest first, or in the waiting view longest waiting first (as the API pages it). */
export function inOrder(rows: Conversation[], view: string): Conversation[] {
  if (view !== "waiting") return [...rows].sort((a, b) => (a.id < b.id ? 1 : -1));
  const key = (c: Conversation) => Number(c.waitingSince ?? 0);
  return [...rows].sort((a, b) => key(a) - key(b) || (a.id < b.id ? -1 : 1));
}

/** Now, again every 30 s: for "waiting 12 min" to move on its own. */
function useNow(everyMs = 30_000) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/** "Waiting 12 min" for a queued conversation. */
export function WaitingFor({ c }: { c: Pick<Conversation, "status" | "waitingSince"> }) {
  const now = useNow();
  if (c.status !== "queued" || !c.waitingSince) return null;
  const minutes = Math.max(0, Math.floor((now - Number(c.waitingSince)) / 60_000));
  const text =
    minutes < 60
      ? t("waitingMin", { n: minutes })
      : t("waitingHours", { h: Math.floor(minutes / 60), n: minutes % 60 });
  return (
    <span class="badge waiting" data-waiting>
      {text}
    </span>
  );
}
