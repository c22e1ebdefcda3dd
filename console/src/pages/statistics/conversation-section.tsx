import { useState } from "preact/hooks";
import { ErrorAlert, Loading, CheckboxField, useResource } from "../../components";
import { conversationStatistics, formatCount, type Range } from "./api";
import { t } from "./strings";

const COUNTS = [
  ["conversationsCount", "conversations"],
  ["messagesCount", "messages"],
  ["contactsCount", "contacts"],
  ["repliesCount", "replies"],
  ["failedRepliesCount", "failedReplies"],
  ["likesCount", "likes"],
  ["dislikesCount", "dislikes"],
] as const;

/**
 * One assistant's conversations over the range, from its conversation statistics. The try-it
 * panel's test conversations are left out unless the switch asks for them, as the API does: the
 * operator's own trials would otherwise read as visitors' traffic.
 */
export function ConversationSection({ chatbot, range }: { chatbot: string; range: Range }) {
  const [includeTests, setIncludeTests] = useState(false);
  const stats = useResource(
    () =>
      conversationStatistics(chatbot, {
        datetimeFrom: range.startDate,
        datetimeTo: range.endDate,
        timezone: range.timezone,
        ...(includeTests ? { includeTests: "true" as const } : {}),
      }),
    [chatbot, range, includeTests],
  );
  return (
    <section aria-labelledby="stats-conversations" class="section">
      <h2 id="stats-conversations">{t("conversationStats")}</h2>
      <CheckboxField
        label={t("includeTests")}
        hint={t("includeTestsHint")}
        checked={includeTests}
        onChange={(e) => setIncludeTests(e.currentTarget.checked)}
      />
      <ErrorAlert error={stats.error} />
      {stats.data ? (
        <dl class="totals" aria-label={t("conversationTotals")} aria-busy={stats.loading || undefined}>
          {COUNTS.map(([key, label]) => (
            <div key={key} class="total" data-count={key}>
              <dt>{t(label)}</dt>
              <dd>{formatCount(stats.data!.total[key])}</dd>
            </div>
          ))}
        </dl>
      ) : (
        stats.loading && <Loading />
      )}
    </section>
  );
}
