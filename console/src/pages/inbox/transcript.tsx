import { useState } from "preact/hooks";
import { ErrorAlert, Loading, Notice } from "../../components/alert";
import { announce } from "../../components/announcer";
import { Button } from "../../components/button";
import { can } from "../../shell/session";
import { BASE, followLink } from "../../shell/router";
import { StateBadges } from "./conversation-list";
import { handBack, reply, resolve, takeOver, type Conversation, type Message } from "./inbox-api";
import { MessageItem } from "./message-item";
import { t } from "./strings";

/** A conversation's transcript with the human agent's controls (take over, reply, hand back, resolve). */
export function Transcript({ conversation: c, messages, onChanged, onSent }: { conversation: Conversation; messages: Message[] | undefined; onChanged: (c: Conversation) => void; onSent: (m: Message) => void }) {
  const manage = can("conversation.manage");
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [draft, setDraft] = useState("");
  const act = async (name: string, run: () => Promise<Conversation>, said: string) => {
    setBusy(name);
    setError(null);
    try {
      onChanged(await run());
      announce(said);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(null);
    }
  };
  const send = async (e: Event) => {
    e.preventDefault();
    if (!draft.trim()) return;
    setBusy("send");
    setError(null);
    try {
      onSent(await reply(c.id, draft.trim()));
      setDraft("");
      announce(t("sent"));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(null);
    }
  };
  return (
    <section class="inbox-transcript" aria-labelledby="transcript-title">
      <a class="inbox-back" href={`${BASE}/conversations`} onClick={followLink}>{t("back")}</a>
      <div class="section-head">
        <h2 id="transcript-title">{c.title || t("untitled")}</h2>
        <StateBadges c={c} />
      </div>
      <p class="muted small">
        {c.contact?.name || t("anonymous")} · {c.inbox.name}
        {c.chatbot ? ` · ${c.chatbot.name}` : ""}
        {c.assignee ? ` · ${t("assignee", { name: c.assignee.name })}` : ""}
      </p>
      {manage ? (
        <div class="row-actions inbox-controls">
          {c.autoReplyEnabled ? (
            <Button variant="primary" busy={busy === "take"} onClick={() => act("take", () => takeOver(c.id), t("takenOver"))}>{t("takeOver")}</Button>
          ) : (
            <Button busy={busy === "back"} onClick={() => act("back", () => handBack(c.id), t("handedBack"))}>{t("handBack")}</Button>
          )}
          {c.status !== "resolved" && <Button busy={busy === "resolve"} onClick={() => act("resolve", () => resolve(c.id), t("resolvedSay"))}>{t("resolve")}</Button>}
        </div>
      ) : (
        <Notice>{t("viewOnly")}</Notice>
      )}
      <ErrorAlert error={error} />
      {messages === undefined ? (
        <Loading />
      ) : messages.length ? (
        <div role="log" aria-label={t("transcript")}>
          <ol class="transcript">
            {messages.map((m) => <MessageItem key={m.id} m={m} />)}
          </ol>
        </div>
      ) : (
        <p class="muted">{t("noMessages")}</p>
      )}
      {manage &&
        (c.autoReplyEnabled ? (
          <p class="muted">{t("replyHint")}</p>
        ) : (
          <form class="inbox-reply" onSubmit={send}>
            <label for="inbox-reply-text">{t("reply")}</label>
            <textarea id="inbox-reply-text" rows={3} maxLength={32000} value={draft} onInput={(e) => setDraft(e.currentTarget.value)} />
            <Button type="submit" variant="primary" busy={busy === "send"} disabled={!draft.trim()}>{t("send")}</Button>
          </form>
        ))}
    </section>
  );
}
