import { Button } from "../../components";
import { formatTime } from "../../i18n";
import { BASE, followLink } from "../../shell/router";
import { session } from "../../shell/session";
import { draftsChanged, hasDraft } from "./drafts";
import type { Conversation } from "./api";
import { LabelChips } from "./labels";
import { t } from "./strings";
import { UnreadBadge } from "./unread";
import { WaitingFor } from "./views";

/** Badges of a conversation's status and progress, as text (colour only repeats it), and whether it is a test. */
export function StateBadges({ c }: { c: Pick<Conversation, "status" | "progressStatus" | "isTest"> }) {
  return (
    <span class="inbox-badges">
      {c.isTest && (
        <span class="badge test" title={t("testHint")}>
          {t("test")}
        </span>
      )}
      <span class={`badge state-${c.status}`}>{t(c.status)}</span>
      {c.progressStatus !== c.status && <span class={`badge progress-${c.progressStatus}`}>{t(c.progressStatus)}</span>}
    </span>
  );
}

/** The conversations, newest first; each a link to its transcript. */
export function ConversationList({
  rows,
  selectedId,
  hasMore,
  loadingMore,
  onMore,
}: {
  rows: Conversation[];
  selectedId: string | null;
  hasMore: boolean;
  loadingMore: boolean;
  onMore: () => void;
}) {
  if (!rows.length) return <p class="muted">{t("none")}</p>;
  // Read so that a draft begun or sent in the reply box marks or unmarks its row at once.
  draftsChanged.value;
  const userId = session.value?.user.id ?? "";
  return (
    <>
      <ul class="inbox-list">
        {rows.map((c) => (
          <li key={c.id} data-conversation={c.id}>
            <a
              href={`${BASE}/conversations/${c.id}`}
              onClick={followLink}
              aria-current={c.id === selectedId ? "page" : undefined}
            >
              <span class="inbox-row-head">
                <strong>{c.title || t("untitled")}</strong>
                {/* The list is newest first by when each conversation started: that is the time shown beside the
                    title, so the times read in order; the last message's is its line's title. */}
                <time class="muted small">{t("started", { time: formatTime(c.createdAt) })}</time>
              </span>
              <span class="muted small">
                {c.contact?.name || t("anonymous")} · {c.inbox.name}
                {/* An assistant's own inbox bears its name: said once. */}
                {c.chatbot && c.chatbot.name !== c.inbox.name ? ` · ${c.chatbot.name}` : ""}
              </span>
              <span
                class="inbox-last"
                title={c.lastMessageCreatedAt ? t("lastAt", { time: formatTime(c.lastMessageCreatedAt) }) : undefined}
              >
                {c.lastMessage || t("noMessage")}
              </span>
              <span class="inbox-badges">
                {hasDraft(userId, c.id) && (
                  <span class="badge draft" title={t("draftHint")}>
                    {t("draft")}
                  </span>
                )}
                <UnreadBadge n={c.unreadCount} />
                <StateBadges c={c} />
              </span>
              <WaitingFor c={c} />
              {c.assignee && <span class="muted small">{t("assignee", { name: c.assignee.name })}</span>}
              <LabelChips labels={c.labels} />
            </a>
          </li>
        ))}
      </ul>
      {hasMore && (
        <Button busy={loadingMore} onClick={onMore}>
          {t("more")}
        </Button>
      )}
    </>
  );
}
