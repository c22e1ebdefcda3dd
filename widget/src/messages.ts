// The log's message rows: who wrote each, its text (Markdown for the assistant's side), files,
// sources, tool results, and the feedback and read-aloud buttons under a reply.
import { expected, type Message } from "./api";
import { h, icon, safeUrl } from "./dom";
import { formatTime, t, type TextKey } from "./i18n";
import type { Widget } from "./main";
import { renderMarkdown } from "./markdown";
import { readAloudButton } from "./speech";

/** A message the widget shows before the server has it (the greeting, the visitor's, a reply under way). */
export const draft = (m: Pick<Message, "role" | "content"> & Partial<Message>) =>
  ({ id: "", citations: [], toolResults: [], feedback: null, ...m }) as unknown as Message;

/** Who wrote a message, as the widget names them. */
export function nameOf(w: Widget, m: Message) {
  if (m.role === "visitor") return t("you");
  if (m.role === "agent") return m.senderName;
  return w.config.assistantName ?? w.config.name;
}

export function rowOf(w: Widget, id: string) {
  return id ? [...w.log.querySelectorAll<HTMLElement>(".row")].find((row) => row.dataset.id === id) : undefined;
}

/** Adds a message bubble: its row, and a function that re-renders it as its text grows. */
export function addMessage(w: Widget, m: Message, readOnly = false) {
  const c = w.config;
  // Who wrote it, as its accessible name: a screen reader (and a test) tells the three apart without CSS.
  const label =
    m.role === "visitor"
      ? t("you")
      : t(m.role === "agent" ? "teamMemberNamed" : "assistantNamed", { name: nameOf(w, m) });
  const row = h("div", { class: `row ${m.role}`, "data-id": m.id || null, role: "article", "aria-label": label });
  const col = h("div", { class: "col" });
  if (m.role !== "visitor") {
    const av = safeUrl(m.role === "assistant" ? c.avatar : m.senderAvatar);
    if ((c.enableDisplayChatbotAvatar || m.role === "agent") && av)
      row.append(h("img", { class: "av", src: av, alt: "" }));
    if (m.role === "agent")
      col.append(h("span", { class: "who" }, m.senderName, " ", h("span", { class: "tag", text: t("teamMember") })));
    else if (c.enableDisplayChatbotName) col.append(h("span", { class: "who", text: nameOf(w, m) }));
  }
  const bubble = h("div", { class: "bubble" });
  col.append(bubble);
  if (m.attachments?.length)
    col.append(
      h(
        "div",
        { class: "files sent" },
        ...m.attachments.map((a) =>
          h("span", { class: "file" }, icon("clip"), h("span", { class: "fn", text: a.filename })),
        ),
      ),
    );
  if (m.role === "visitor" && !m.content) bubble.hidden = true;
  // When it was written, once the server (or this tab's send) says: the greeting and a reply under way have no time.
  const at = h("time", { class: "at", hidden: true });
  col.append(at);
  row.append(col);
  w.log.append(row);
  const render = (msg: Message, streaming: boolean) => {
    if ("done" in row.dataset) return; // complete: the live stream may bring the same message again
    if (!streaming && msg.id) row.dataset.done = "";
    // Where the conversation stores it: a message another tab sent goes above a later one of this tab's (live-view.ts).
    if (msg.sequence) row.dataset.seq = String(msg.sequence);
    bubble.classList.toggle("typing", streaming);
    // A reply being drawn is busy: assistive technology waits for its whole text (docs/decisions.md, "The widget's
    // live stream").
    if (streaming || row.hasAttribute("aria-busy")) row.setAttribute("aria-busy", String(streaming));
    if (!streaming && msg.createdAt) {
      const ms = Number(msg.createdAt);
      at.dateTime = new Date(ms).toISOString();
      at.textContent = formatTime(ms);
      at.hidden = false;
    }
    if (msg.role === "visitor") bubble.textContent = msg.content;
    else
      renderMarkdown(
        msg.content,
        bubble,
        // The assistant's [n] markers point at its sources: without them shown (the web chat's choice), a bare "[1]"
        // pointed at nothing. A person's words are theirs.
        msg.role === "assistant"
          ? (n) =>
              c.enableDisplayCitations && msg.citations[n - 1]
                ? h("sup", { class: "c", text: `[${n}]`, title: msg.citations[n - 1].title })
                : null
          : undefined,
      );
    if (!streaming && msg.role === "assistant") {
      if (msg.citations.length) bubble.append(sources(w, msg));
      for (const r of msg.toolResults)
        bubble.append(
          h(
            "details",
            { class: "toolres" },
            h("summary", { text: t("toolResult", { name: r.name, status: toolStatus(r.status) }) }),
            h("pre", { text: r.output }),
          ),
        );
      if (msg.id && !readOnly) col.append(tools(w, msg));
    }
    w.scroll();
  };
  render(m, false);
  w.rendered.set(row, (msg, streaming) => {
    if (msg.id) row.dataset.id = msg.id;
    render(msg, streaming);
  });
  return { render, row };
}

const TOOL_STATUS: Record<string, TextKey> = {
  success: "toolSuccess",
  failure: "toolFailure",
  pending: "toolPending",
  timeout: "toolTimeout",
};

/** A tool call's status in the visitor's language (one the widget does not know: as the API named it). */
const toolStatus = (status: string) => (TOOL_STATUS[status] ? t(TOOL_STATUS[status]) : status);

/** A reply's sources, folded, and (enableDownloadCitations) a button that saves them as a text file. */
function sources(w: Widget, m: Message) {
  const list = h(
    "ol",
    {},
    ...m.citations.map((s) =>
      h(
        "li",
        {},
        h("strong", { text: s.title + (s.page ? t("page", { page: s.page }) : "") }),
        h("span", { class: "sn", text: s.snippet }),
      ),
    ),
  );
  const box = h("details", { class: "sources" }, h("summary", { text: t("sources", { n: m.citations.length }) }), list);
  if (w.config.enableDownloadCitations) {
    box.append(
      h("button", {
        type: "button",
        class: "chip",
        text: t("downloadSources"),
        onclick: () => {
          const text = m.citations
            .map((s) => `[${s.index}] ${s.title}${s.page ? t("page", { page: s.page }) : ""}\n${s.snippet}\n`)
            .join("\n");
          const a = h("a", {
            href: URL.createObjectURL(new Blob([text], { type: "text/plain" })),
            download: "sources.txt",
          });
          a.click();
          setTimeout(() => URL.revokeObjectURL(a.href), 1000);
        },
      }),
    );
  }
  return box;
}

/** Under a stored reply: helpful / not helpful (pressed again: withdrawn), and read aloud (enableSpeech). */
function tools(w: Widget, m: Message) {
  const like = h(
    "button",
    { type: "button", "aria-label": t("helpful"), "aria-pressed": String(m.feedback === "like") },
    icon("up"),
  );
  const dislike = h(
    "button",
    { type: "button", "aria-label": t("notHelpful"), "aria-pressed": String(m.feedback === "dislike") },
    icon("down"),
  );
  const rate = async (value: "like" | "dislike") => {
    const next = m.feedback === value ? null : value;
    try {
      m.feedback = (await w.api.feedback(m.id, next)).feedback;
    } catch (err) {
      if (!expected(err)) throw err;
      w.status.textContent = t("feedbackFailed");
      return;
    }
    like.setAttribute("aria-pressed", String(m.feedback === "like"));
    dislike.setAttribute("aria-pressed", String(m.feedback === "dislike"));
    w.status.textContent = t("feedbackThanks");
  };
  like.addEventListener("click", () => void rate("like"));
  dislike.addEventListener("click", () => void rate("dislike"));
  const bar = h("div", { class: "tools" }, like, dislike);
  if (w.config.enableSpeech && "speechSynthesis" in window) bar.append(readAloudButton(m.content));
  return bar;
}

/**
 * Above a conversation's oldest message shown when it has older ones: a button that brings the 100 before it, in
 * place, the messages on screen staying where they are. A visit reads the latest 100; a long conversation's start
 * was otherwise out of the visitor's reach.
 */
export function showEarlier(w: Widget, conversationId: string, oldest: number) {
  const button = h("button", { class: "chip earlier", type: "button", text: t("earlier") });
  button.onclick = async () => {
    button.disabled = true;
    try {
      const page = await w.api.history(conversationId, oldest);
      if (w.conversationId !== conversationId || !button.isConnected) return;
      const fromBottom = w.log.scrollHeight - w.log.scrollTop;
      const from = w.log.children.length;
      for (const m of page.results) addMessage(w, m);
      button.after(...[...w.log.children].slice(from));
      w.log.scrollTop = w.log.scrollHeight - fromBottom;
      if (page.hasMore && page.results.length) {
        oldest = page.results[0].sequence;
        button.disabled = false;
      } else {
        button.remove();
        w.log.focus(); // the button had it
      }
    } catch (err) {
      button.disabled = false;
      if (!expected(err)) throw err;
      w.error(t("cannotConnect"));
    }
  };
  w.log.append(button);
}
