import { useId, useState } from "preact/hooks";
import { CopyButton, SelectField } from "../../components";
import { snippetOf } from "./draft";
import { t } from "./strings";

/** The full-page chat of a web chat, on this platform's origin; `lang` fixes its language (`?lang=`). */
export const pageOf = (id: string, lang = "") => `${location.origin}/chat/${id}${lang ? `?lang=${lang}` : ""}`;

const iframeOf = (id: string, lang: string) =>
  `<iframe src="${pageOf(id, lang)}" title="Chat" style="width:100%;height:640px;border:0" allow="microphone; ` +
  `geolocation; clipboard-write"></iframe>`;

// The widget reads its script tag; React would add it again on each mount (twice in development),
// and each copy would draw a second launcher: the example adds it once per page.
const reactOf = (
  id: string,
  lang: string,
) => `"use client"; // Next.js App Router: a client component. Render <ChatWidget /> once, e.g. in app/layout.tsx.
import { useEffect } from "react";

export function ChatWidget() {
  useEffect(() => {
    if (document.querySelector('script[data-web-chat-id="${id}"]')) return;
    const script = document.createElement("script");
    script.src = "${location.origin}/widget.js";
    script.async = true;
    script.dataset.webChatId = "${id}";${lang ? `\n    script.dataset.lang = "${lang}";` : ""}
    document.body.append(script);
  }, []);
  return null;
}`;

/**
 * Every way to publish one web chat, each with its copy button: script tag, iframe, link, React/Next.js. The
 * language chosen above them goes into each (`data-lang`, `?lang=`): the web chat itself has no language field
 * (docs/decisions.md, "Widget defaults").
 */
export function EmbedCodes({
  webChatId,
  lang: shared,
  setLang: setShared,
}: {
  webChatId: string;
  /** The language, where the page shares it (the designer's preview speaks it too); else the codes keep their own. */
  lang?: string;
  setLang?: (lang: string) => void;
}) {
  const [own, setOwn] = useState("");
  const lang = shared ?? own;
  const setLang = setShared ?? setOwn;
  const page = pageOf(webChatId, lang);
  return (
    <>
      <div class="embed-language">
        <SelectField
          label={t("embedLanguage")}
          hint={t("embedLanguageHint")}
          value={lang}
          onChange={(e) => setLang(e.currentTarget.value)}
          options={[
            ["", t("languageBrowser")],
            ["en", t("languageEn")],
            ["zh-TW", t("languageZhTW")],
          ]}
        />
      </div>
      <div class="embed-codes">
        <Code
          title={t("codeScript")}
          hint={t("codeScriptHint")}
          code={snippetOf(webChatId, lang)}
          copy={t("copySnippet")}
          rows={2}
        />
        <Code
          title={t("codeIframe")}
          hint={t("codeIframeHint")}
          code={iframeOf(webChatId, lang)}
          copy={t("copyIframe")}
          rows={3}
        />
        <div class="embed-code">
          <h3>{t("fullPage")}</h3>
          <p class="hint">{t("fullPageHint")}</p>
          <div class="embed-link">
            <a href={page} target="_blank" rel="noopener">
              {page}
            </a>
            <CopyButton text={page} label={t("copyLink")} />
          </div>
        </div>
        <Code
          title={t("codeReact")}
          hint={t("codeReactHint")}
          code={reactOf(webChatId, lang)}
          copy={t("copyReact")}
          rows={lang ? 9 : 8}
        />
      </div>
    </>
  );
}

function Code({
  title,
  hint,
  code,
  copy,
  rows,
}: {
  title: string;
  hint: string;
  code: string;
  copy: string;
  rows: number;
}) {
  const id = useId();
  return (
    <div class="embed-code">
      <h3 id={`${id}-title`}>{title}</h3>
      <p class="hint" id={`${id}-hint`}>
        {hint}
      </p>
      <textarea
        class="code"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-hint`}
        rows={rows}
        readOnly
        value={code}
        spellcheck={false}
        onFocus={(e) => e.currentTarget.select()}
      />
      <CopyButton text={code} label={copy} />
    </div>
  );
}
