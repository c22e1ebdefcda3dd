// The API marks a passage's matched terms as HTML (`highlightedText`: the text escaped, terms in
// <mark>), using its own stemming. The console never renders that HTML: it splits it at the marks,
// decodes the few entities the API writes, and lets Preact render each piece as text.
const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" };
const decode = (s: string) => s.replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]);

/** [text, marked] pieces of a highlighted passage. */
export function pieces(highlighted: string): [string, boolean][] {
  return highlighted
    .split(/<mark>([\s\S]*?)<\/mark>/)
    .map((part, i): [string, boolean] => [decode(part), i % 2 === 1])
    .filter(([text]) => text);
}

export function Highlighted({ html }: { html: string }) {
  return <>{pieces(html).map(([text, marked], i) => (marked ? <mark key={i}>{text}</mark> : text))}</>;
}
