import { useLayoutEffect, useRef } from "preact/hooks";
import { renderMarkdown } from "../../../widget/src/markdown";

/**
 * Markdown from users or models (instructions, answers), rendered by the widget's renderer: DOM
 * nodes with text content, never HTML, and links only to http(s) and mailto.
 */
export function Markdown({ source, class: extra }: { source: string; class?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => renderMarkdown(source, ref.current!), [source]);
  return <div ref={ref} class={`markdown${extra ? ` ${extra}` : ""}`} />;
}
