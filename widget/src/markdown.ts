// Markdown to DOM nodes without innerHTML: message text can never inject markup or script.

const SAFE_URL = /^(https?:|mailto:)/i;

function inline(text: string, into: Node, cite?: (n: number) => Node | null): void {
  // Code spans, links, bold, italics and [n] citation markers; everything else is text.
  const pattern =
    /(`[^`]+`)|\[([^\]]+)\]\(([^)\s]+)\)|\*\*([^*]+)\*\*|__([^_]+)__|\*([^*\s][^*]*)\*|_([^_\s][^_]*)_|\[(\d{1,2})\]/g;
  let last = 0;
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
    if (m.index > last) into.appendChild(document.createTextNode(text.slice(last, m.index)));
    last = m.index + m[0].length;
    if (m[1]) {
      const code = document.createElement("code");
      code.textContent = m[1].slice(1, -1);
      into.appendChild(code);
    } else if (m[2] !== undefined) {
      if (SAFE_URL.test(m[3])) {
        const a = document.createElement("a");
        a.href = m[3];
        a.target = "_blank";
        a.rel = "noopener noreferrer nofollow";
        inline(m[2], a, cite);
        into.appendChild(a);
      } else into.appendChild(document.createTextNode(m[2]));
    } else if (m[4] !== undefined || m[5] !== undefined) {
      const b = document.createElement("strong");
      inline(m[4] ?? m[5], b, cite);
      into.appendChild(b);
    } else if (m[6] !== undefined || m[7] !== undefined) {
      const i = document.createElement("em");
      inline(m[6] ?? m[7], i, cite);
      into.appendChild(i);
    } else if (m[8] !== undefined) {
      if (!cite) into.appendChild(document.createTextNode(m[0]));
      else {
        // A marker with nothing to point at (sources not shown) is left out, with the space before it.
        const marker = cite(Number(m[8]));
        if (marker) into.appendChild(marker);
        else if (into.lastChild instanceof Text) into.lastChild.data = into.lastChild.data.trimEnd();
      }
    }
  }
  if (last < text.length) into.appendChild(document.createTextNode(text.slice(last)));
}

/**
 * Renders a reply's Markdown (paragraphs, lists, headings, code blocks, quotes) into `root`. With `cite`, each `[n]`
 * marker is what it gives, or nothing when it gives null; without, the marker stays text.
 */
export function renderMarkdown(source: string, root: HTMLElement, cite?: (n: number) => Node | null): void {
  root.replaceChildren();
  const lines = source.replace(/\r\n?/g, "\n").split("\n");
  let list: HTMLElement | null = null;
  let paragraph: HTMLElement | null = null;
  const flush = () => {
    paragraph = null;
    list = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (/^```/.test(line)) {
      flush();
      const pre = document.createElement("pre");
      // It scrolls sideways when a line is long: focusable, so a keyboard can scroll it too.
      pre.tabIndex = 0;
      const code = document.createElement("code");
      const body: string[] = [];
      for (i++; i < lines.length && !/^```/.test(lines[i]); i++) body.push(lines[i]);
      code.textContent = body.join("\n");
      pre.appendChild(code);
      root.appendChild(pre);
      continue;
    }
    if (!line.trim()) {
      flush();
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    const bullet = /^\s*[-*+]\s+(.*)$/.exec(line);
    const numbered = /^\s*\d+[.)]\s+(.*)$/.exec(line);
    const quote = /^>\s?(.*)$/.exec(line);
    if (heading) {
      flush();
      const h = document.createElement("p");
      h.className = "h";
      inline(heading[2], h, cite);
      root.appendChild(h);
    } else if (bullet || numbered) {
      const tag = bullet ? "UL" : "OL";
      if (!list || list.tagName !== tag) {
        paragraph = null;
        list = document.createElement(tag.toLowerCase());
        root.appendChild(list);
      }
      const li = document.createElement("li");
      inline((bullet ?? numbered)![1], li, cite);
      list.appendChild(li);
    } else if (quote) {
      flush();
      const q = document.createElement("blockquote");
      inline(quote[1], q, cite);
      root.appendChild(q);
    } else {
      list = null;
      if (paragraph) paragraph.appendChild(document.createElement("br"));
      else {
        paragraph = document.createElement("p");
        root.appendChild(paragraph);
      }
      inline(line, paragraph, cite);
    }
  }
}
