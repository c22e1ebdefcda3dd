import { unreadInboxes } from "../../shell/notifications";
import { t } from "./unread-strings";

/** A conversation's unread messages, as a badge (nothing when none). */
export function UnreadBadge({ n }: { n: number }) {
  return n > 0 ? <span class="badge unread">{t("unread", { n })}</span> : null;
}

/** The inboxes with unread conversations, each a button that filters the list to it. */
export function UnreadInboxes({ selected, onPick }: { selected: string; onPick: (inboxId: string) => void }) {
  const inboxes = unreadInboxes.value;
  if (!inboxes.length) return null;
  return (
    <nav class="unread-inboxes" aria-label={t("unreadInboxes")}>
      {inboxes.map((i) => (
        <button
          key={i.id}
          type="button"
          class="btn quiet"
          aria-pressed={selected === i.id}
          aria-label={t("showInbox", { name: i.name, n: i.count })}
          onClick={() => onPick(selected === i.id ? "" : i.id)}
        >
          {i.name} <span class="badge unread">{i.count}</span>
        </button>
      ))}
    </nav>
  );
}
