import { Markdown } from "../../components";
import type { Citation, Turn } from "./try-it-stream";
import { t } from "./strings";

const json = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v, null, 2));

/** A source's title: the FAQ's question, else its file's name. */
const titleOf = ({ node }: Citation) => node.faq?.question || node.filename || node.knowledgeBaseFile?.filename || "";
/** A source's passage: the FAQ whole, else the text node's text. */
const passageOf = ({ node }: Citation) => (node.faq ? `${node.faq.question}\n${node.faq.answer}` : node.text);

/** One question and the assistant's reply: the streamed text, then its tool calls, sources, tokens and timings. */
export function TurnView({ turn, assistantName }: { turn: Turn; assistantName: string }) {
  const streaming = turn.state === "streaming";
  return (
    <li class="turn" data-state={turn.state}>
      <div class="bubble question">
        <span class="sr-only">{t("you")}: </span>
        {turn.question}
      </div>
      <div class="bubble answer" aria-busy={streaming || undefined}>
        <span class="who">{assistantName}</span>
        {turn.toolCalls.length > 0 && <ToolCalls turn={turn} />}
        {turn.answer && <Markdown source={turn.answer} />}
        {streaming && !turn.answer && <p class="muted">{t("thinking")}</p>}
        {turn.state === "human" && <p class="muted">{t("withHuman")}</p>}
        {turn.state === "failed" && (
          <p class="field-error" role="alert">
            {t("replyFailed", { detail: turn.error ?? "" })}
          </p>
        )}
        {turn.citations.length > 0 && (
          <div class="sources">
            <h3>{t("sources")}</h3>
            <ol>
              {turn.citations.map((c, i) => (
                <li key={i}>
                  <details>
                    <summary>
                      <span class="source-title">{titleOf(c) || t("untitled")}</span>
                      {c.node.knowledgeBase?.name && <span class="muted small"> · {c.node.knowledgeBase.name}</span>}
                      <span class="muted small"> · {t("score", { score: Math.round(c.score * 100) })}</span>
                    </summary>
                    <blockquote class="passage">{passageOf(c)}</blockquote>
                  </details>
                </li>
              ))}
            </ol>
          </div>
        )}
        {(turn.firstTokenMs !== null || turn.usage || turn.totalMs !== null) && (
          <p class="turn-meta muted small">
            {turn.firstTokenMs !== null && <span>{t("firstToken", { ms: turn.firstTokenMs })}</span>}
            {turn.totalMs !== null && <span>{t("total", { ms: turn.totalMs })}</span>}
            {turn.usage && (
              <span>{t("tokens", { prompt: turn.usage.promptTokens, completion: turn.usage.completionTokens })}</span>
            )}
          </p>
        )}
      </div>
    </li>
  );
}

function ToolCalls({ turn }: { turn: Turn }) {
  return (
    <ul class="tool-calls" aria-label={t("toolCalls")}>
      {turn.toolCalls.map((call) => (
        <li key={call.id}>
          <details>
            <summary>
              {t("toolCall", { name: call.displayName || call.name })}{" "}
              <span class={`status ${call.status === "success" ? "ok" : call.status ? "failed" : "muted"}`}>
                {call.status ? t("toolStatus", { status: call.status, ms: call.durationMs ?? 0 }) : t("running")}
              </span>
            </summary>
            <p class="small">{t("input")}</p>
            <pre>{json(call.input ?? {})}</pre>
            {call.status && (
              <>
                <p class="small">{call.error ? t("error") : t("output")}</p>
                <pre>{call.error ?? json(call.output ?? "")}</pre>
              </>
            )}
          </details>
        </li>
      ))}
    </ul>
  );
}
