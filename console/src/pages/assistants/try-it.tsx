import { useEffect, useRef, useState } from "preact/hooks";
import { Button, announce, TextAreaField, SectionHead } from "../../components";
import { TurnView } from "./try-it-turn";
import { ask, type Turn } from "./try-it-stream";
import { sendsMessage } from "../../components/keys";
import { t } from "./strings";

/** Each assistant's conversation in this tab, kept while the operator looks at other pages. */
const kept = new Map<string, { conversationId: string | null; turns: Turn[] }>();

/**
 * Talks to the assistant as a customer's integration would (the streaming completions endpoint),
 * in one conversation until "New conversation". The reply's text streams in; when it is done the
 * panel shows its sources with their passages, the tool calls, the tokens and the timings.
 */
export function TryIt({ assistantId, assistantName }: { assistantId: string; assistantName: string }) {
  const [state, setState] = useState(() => kept.get(assistantId) ?? { conversationId: null, turns: [] });
  const [question, setQuestion] = useState("");
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => void kept.set(assistantId, state), [assistantId, state]);
  useEffect(() => () => abort.current?.abort(), []);

  const send = async (event?: Event) => {
    event?.preventDefault();
    const content = question.trim();
    if (!content || busy) return;
    setQuestion("");
    setBusy(true);
    const index = state.turns.length;
    const put = (turn: Turn) => setState((s) => ({ ...s, turns: [...s.turns.slice(0, index), turn] }));
    abort.current = new AbortController();
    let last: Turn | undefined;
    const conversationId = await ask(
      assistantId,
      state.conversationId,
      content,
      (turn) => put((last = turn)),
      abort.current.signal,
    );
    setState((s) => ({ ...s, conversationId }));
    setBusy(false);
    if (last?.state === "failed") announce(t("replyFailed", { detail: last.error ?? "" }), true);
    else if (last?.state === "human") announce(t("withHuman"));
    else if (last) announce(t("replied", { name: assistantName, answer: last.answer.slice(0, 300) }));
    input.current?.focus();
  };
  const restart = () => {
    abort.current?.abort();
    setState({ conversationId: null, turns: [] });
    announce(t("newConversationStarted"));
    input.current?.focus();
  };

  return (
    <section class="try-it" aria-labelledby="try-it-title">
      <SectionHead id="try-it-title" title={t("tryIt")}>
        <Button onClick={restart} disabled={!state.turns.length && !busy}>
          {t("newConversation")}
        </Button>
      </SectionHead>
      <p class="muted small">
        {state.conversationId ? t("inConversation", { id: state.conversationId }) : t("tryItIntro")}
      </p>
      {state.turns.length > 0 && (
        <ol class="transcript" aria-label={t("transcript")}>
          {state.turns.map((turn, i) => (
            <TurnView key={i} turn={turn} assistantName={assistantName} />
          ))}
        </ol>
      )}
      <form class="ask" onSubmit={send}>
        <TextAreaField
          areaRef={input}
          label={t("yourMessage")}
          rows={2}
          value={question}
          hint={t("sendHint")}
          onInput={(e) => setQuestion(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (sendsMessage(e)) send(e);
          }}
        />
        <Button type="submit" variant="primary" busy={busy} disabled={!question.trim()}>
          {t("send")}
        </Button>
      </form>
    </section>
  );
}
