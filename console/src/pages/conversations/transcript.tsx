import { useLayoutEffect, useRef, useState } from "preact/hooks";
import { problemOf } from "../../api/client";
import { ErrorAlert, Loading, Notice, announce, Button } from "../../components";
import { can, session } from "../../shell/session";
import { BASE, followLink } from "../../shell/router";
import { StateBadges } from "./conversation-list";
import { handBack, resolve, takeOver, type Conversation, type Message } from "./api";
import { LabelChips, LabelPicker } from "./labels";
import { MessageItem } from "./message-item";
import { ReplyBox } from "./reply-box";
import { CsatView, TypingLine } from "./human";
import { t } from "./strings";
import { AssignControl } from "./assign-control";
import { ContactPanel } from "./contact-panel";
import { WaitingFor } from "./views";

/** The controls focus can go to after an action. */
type Control = "take" | "back" | "resolve" | "reply" | "title";

/** A conversation's transcript with the human agent's controls (take over, reply, hand back, resolve). */
export function Transcript({
  conversation: c,
  messages,
  typing = null,
  onChanged,
  onSent,
  onReload,
}: {
  conversation: Conversation;
  messages: Message[] | undefined;
  /** The visitor's name while they type (the live stream's `conversation.typing`), else null. */
  typing?: string | null;
  onChanged: (c: Conversation) => void;
  onSent: (m: Message) => void;
  onReload: () => void;
}) {
  const manage = can("conversation.manage");
  // Take over is offered until the member themselves serves it: while the assistant answers, and also while it waits
  // for a person (the Waiting view's work), is served by a colleague, or is resolved (taking it over reopens it).
  const servedByMe =
    !c.autoReplyEnabled && c.progressStatus === "human_serving" && c.assignee?.id === session.value?.user.id;
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const controls = {
    take: useRef<HTMLButtonElement>(null),
    back: useRef<HTMLButtonElement>(null),
    resolve: useRef<HTMLButtonElement>(null),
    reply: useRef<HTMLTextAreaElement>(null),
    title: useRef<HTMLHeadingElement>(null),
  };
  // The pressed button is disabled while its request runs, and is gone once the conversation's new
  // state renders (take over and hand back swap, resolve leaves): focus would fall to the page's
  // body. It goes where the member's next step is, in the render that shows the action's outcome.
  const [focusNext, setFocusNext] = useState<Control | null>(null);
  useLayoutEffect(() => {
    if (!focusNext) return;
    const target = controls[focusNext].current;
    // That control is missing when a live update changed the conversation meanwhile: its heading then.
    (target && !(target instanceof HTMLButtonElement && target.disabled) ? target : controls.title.current)?.focus();
    setFocusNext(null);
  }, [focusNext]);
  // The newest message in view, as a chat opens and follows: when a conversation's messages first show, and when one
  // arrives while the one before it was in view; a member reading older ones keeps their place. The reply box is what
  // comes into view when there is one, the newest message just above it.
  const list = useRef<HTMLOListElement>(null);
  const shown = useRef<{ id: string; count: number } | null>(null);
  useLayoutEffect(() => {
    const items = list.current?.children;
    if (!items?.length) return;
    const before = shown.current;
    shown.current = { id: c.id, count: items.length };
    if (before?.id === c.id) {
      const previous = items[before.count - 1];
      if (items.length <= before.count || !previous || previous.getBoundingClientRect().top > innerHeight) return;
    }
    (controls.reply.current ?? items[items.length - 1]).scrollIntoView({ block: "nearest" });
  }, [c.id, messages?.length]);
  /** Runs an action; then focus goes to `next`, or back to the pressed button (to try again) when it failed. */
  const act = async (
    name: "take" | "back" | "resolve",
    run: () => Promise<Conversation>,
    said: string,
    next: Control,
  ) => {
    setBusy(name);
    setError(null);
    try {
      onChanged(await run());
      announce(said);
      setFocusNext(next);
    } catch (err) {
      setError(problemOf(err));
      setFocusNext(name);
    } finally {
      setBusy(null);
    }
  };
  return (
    <section class="inbox-transcript" aria-labelledby="transcript-title">
      <a class="inbox-back" href={`${BASE}/conversations`} onClick={followLink}>
        {t("back")}
      </a>
      <div class="section-head">
        <h2 id="transcript-title" ref={controls.title} tabIndex={-1}>
          {c.title || t("untitled")}
        </h2>
        {/* How long the visitor has waited: the list says it too, but on a phone the list is hidden while a
            conversation is open. Beside the state badges, as one group on the heading's right. */}
        <span class="transcript-badges">
          <StateBadges c={c} />
          <WaitingFor c={c} />
        </span>
      </div>
      <p class="muted small">
        {c.contact?.name || t("anonymous")} · {c.inbox.name}
        {c.chatbot ? ` · ${c.chatbot.name}` : ""}
        {c.assignee ? ` · ${t("assignee", { name: c.assignee.name })}` : ""}
        {c.team ? ` · ${t("team", { name: c.team.name })}` : ""}
      </p>
      <ContactPanel c={c} />
      <div class="inbox-labels">
        <LabelChips labels={c.labels} />
        {manage && <LabelPicker conversation={c} onChanged={onChanged} />}
      </div>
      {manage && <AssignControl c={c} onChanged={onChanged} />}
      {manage ? (
        <div class="row-actions inbox-controls">
          {!servedByMe && (
            // Taken over: the member came to reply.
            <Button
              ref={controls.take}
              variant="primary"
              busy={busy === "take"}
              onClick={() => act("take", () => takeOver(c.id), t("takenOver"), "reply")}
            >
              {t("takeOver")}
            </Button>
          )}
          {!c.autoReplyEnabled && (
            // Handed back: Take over, before it, is where the member can take it again.
            <Button
              ref={controls.back}
              busy={busy === "back"}
              onClick={() => act("back", () => handBack(c.id), t("handedBack"), "take")}
            >
              {t("handBack")}
            </Button>
          )}
          {c.status !== "resolved" && (
            // Resolved, the conversation is done: focus goes to its heading, the top of what the member
            // was reading, from where the next step is their choice (back to the list, or read on),
            // rather than to Take over or Hand back, which Enter would press on a finished conversation.
            <Button
              ref={controls.resolve}
              busy={busy === "resolve"}
              onClick={() => act("resolve", () => resolve(c.id), t("resolvedSay"), "title")}
            >
              {t("resolve")}
            </Button>
          )}
        </div>
      ) : (
        <Notice>{t("viewOnly")}</Notice>
      )}
      <ErrorAlert error={error} />
      {messages === undefined ? (
        <Loading />
      ) : messages.length ? (
        <div role="log" aria-label={t("transcript")}>
          <ol class="transcript" ref={list}>
            {messages.map((m) => (
              <MessageItem key={m.id} m={m} onReload={onReload} />
            ))}
          </ol>
        </div>
      ) : (
        <p class="muted">{t("noMessages")}</p>
      )}
      <TypingLine name={typing} />
      {c.csat ? <CsatView csat={c.csat} /> : null}
      {manage && c.autoReplyEnabled && <p class="muted">{t("replyHint")}</p>}
      {/* Keyed by the conversation and who serves it: a new draft, in the mode that fits (notes only while the
          assistant serves). */}
      {manage && (
        <ReplyBox key={`${c.id}-${c.autoReplyEnabled}`} conversation={c} areaRef={controls.reply} onSent={onSent} />
      )}
    </section>
  );
}
