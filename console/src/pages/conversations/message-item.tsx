import { Markdown } from "../../components";
import { isExpected } from "../../api/client";
import { formatTime } from "../../i18n";
import { ChannelTag, DeliveryStatus } from "./channel-parts";
import { attachmentUrl, type Message } from "./api";
import { t } from "./strings";
import { t as notes } from "./notes-strings";

type Json = Record<string, unknown>;
const str = (v: unknown) => (typeof v === "string" ? v : v === undefined || v === null ? "" : JSON.stringify(v));

/**
 * Who sent the message, as the transcript names them: a visitor with no contact (the API's, the try-it panel's) is the
 * anonymous visitor, as the conversation's list and header say, not the placeholder name stored with the message.
 */
const senderName = (m: Message) => (m.senderType === "contact" && !m.sender.id ? t("anonymous") : m.sender.name);

/**
 * One message of a transcript: who sent it (and through which platform), its text, files, sources,
 * tool calls, the visitor's feedback and, for a reply to a messaging platform, its delivery.
 */
export function MessageItem({ m, onReload }: { m: Message; onReload: () => void }) {
  const toolCalls = (Array.isArray(m.contentPayload?.toolCalls) ? m.contentPayload.toolCalls : []) as Json[];
  const sources = m.citationNodes.length ? m.citationNodes : m.citations;
  return (
    <li class={`msg sender-${m.senderType}${m.private ? " private-note" : ""}`} data-message={m.id}>
      <p class="msg-head">
        {m.private && <span class="badge private-note">{notes("privateNote")}</span>}
        <span class={`badge sender-${m.senderType}`}>{t(m.senderType === "contact" ? "visitor" : m.senderType)}</span>
        <span>{senderName(m)}</span>
        <time class="muted small">{formatTime(m.createdAt)}</time>
        <ChannelTag m={m} />
      </p>
      {m.senderType === "contact" ? (
        <p class="msg-text">{m.content}</p>
      ) : (
        <Markdown source={m.content} class="msg-text" />
      )}
      {m.attachments.length > 0 && (
        <ul class="msg-files" aria-label={t("attachment")}>
          {(m.attachments as Json[]).map((a, i) => (
            <Attachment key={i} a={a} />
          ))}
        </ul>
      )}
      {sources.length > 0 && (
        <details class="msg-more">
          <summary>{t("sources", { n: sources.length })}</summary>
          <ol>
            {(sources as Json[]).map((s, i) => {
              const node = (s.node ?? s) as Json;
              return (
                <li key={i}>
                  <strong>
                    {str(node.filename) ||
                      str((node.faq as Json | undefined)?.question) ||
                      str(node.citationTitle) ||
                      `#${i + 1}`}
                  </strong>
                  {typeof node.pageStart === "number" && (
                    <span class="muted"> ({t("page", { n: node.pageStart })})</span>
                  )}
                  {node.text ? <p class="muted small">{str(node.text).slice(0, 280)}</p> : null}
                </li>
              );
            })}
          </ol>
        </details>
      )}
      {toolCalls.length > 0 && (
        <details class="msg-more">
          <summary>{t("toolCalls", { n: toolCalls.length })}</summary>
          <ol>
            {toolCalls.map((call, i) => (
              <li key={i}>
                <strong>{str(call.name) || str((call.tool as Json | undefined)?.name)}</strong>{" "}
                <span class="badge">{str(call.status) || "success"}</span>
                <pre>{str(call.input)}</pre>
                <pre>{str(call.output).slice(0, 2000)}</pre>
              </li>
            ))}
          </ol>
        </details>
      )}
      {m.feedback && <p class="muted small">{t(m.feedback === "like" ? "liked" : "disliked")}</p>}
      <DeliveryStatus m={m} onRetried={onReload} />
    </li>
  );
}

/** Images inline; other files as a download through a freshly signed URL (the stored one expires). */
function Attachment({ a }: { a: Json }) {
  const name = str(a.filename) || "file";
  const url = str(a.file);
  const open = (e: MouseEvent) => {
    if (typeof a.id !== "string") return;
    e.preventDefault();
    // Without a fresh URL (refused, or offline), the stored one may still work.
    attachmentUrl(a.id).then(
      (fresh) => window.open(fresh, "_blank", "noopener"),
      (err) => {
        if (!isExpected(err)) throw err;
        window.open(url, "_blank", "noopener");
      },
    );
  };
  return (
    <li>
      {(a.type === "image" || a.type === "sticker") && /^(https?:|\/)/.test(url) && (
        <img src={url} alt={name} loading="lazy" />
      )}
      <a href={url} target="_blank" rel="noopener" onClick={open} aria-label={t("download", { name })}>
        {name}
      </a>
    </li>
  );
}
