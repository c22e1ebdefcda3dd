import { useEffect, useRef } from "preact/hooks";
import { t } from "./strings";

// The served /widget.js in preview mode, in a frame of the console's own origin (srcdoc: the
// console's CSP applies to it, and `script-src 'self'` lets the widget load). The widget then takes
// its configuration from postMessage instead of the API, so unsaved values show at once. Its language
// is the embed's (`data-lang`, "" for the browser's): chosen when the widget starts, so a change
// loads the frame again.
const documentOf = (lang: string) =>
  `<!doctype html><html lang="${lang || "en"}"><head><meta charset="utf-8">` +
  '<meta name="color-scheme" content="light dark"><title>Web chat preview</title></head><body>' +
  `<script src="/widget.js" data-mode="preview"${lang ? ` data-lang="${lang}"` : ""}></script></body></html>`;

/**
 * The real widget drawn with `config` (unsaved), in its light or dark theme and in `lang` (the one chosen for the
 * embed codes), redrawn as they change.
 */
export function WidgetPreview({ config, dark, lang }: { config: unknown; dark: boolean; lang: string }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const post = () =>
    frame.current?.contentWindow?.postMessage({ type: "assistant-chat:preview", config, dark }, origin);
  useEffect(post, [config, dark]);
  return (
    <iframe
      ref={frame}
      class={`widget-preview ${dark ? "dark" : "light"}`}
      title={t("previewFrame", { mode: t(dark ? "dark" : "light") })}
      srcdoc={documentOf(lang)}
      onLoad={post}
    />
  );
}
