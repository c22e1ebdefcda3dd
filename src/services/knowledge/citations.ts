import type { Passage } from "../llm/types";
import { terms } from "../llm/text";

const SENTENCE_END = /[.!?。！？](?=\s|$)|\n/u;
/** A sentence cites a passage when at least this share of its terms occur in the passage. */
const MIN_OVERLAP = 0.5;

/**
 * Inserts `[n]` markers after each sentence of an answer, naming the passage the sentence comes
 * from (enableInLineCitations). Works on a stream: text is held back only until its sentence ends,
 * so the streamed text and the stored message are the same. `cited` lists the passage numbers used.
 */
export class CitationMarker {
  readonly cited = new Set<number>();
  #pending = "";
  #passageTerms: { index: number; terms: Set<string> }[];

  constructor(passages: Passage[]) {
    this.#passageTerms = passages.map((p) => ({ index: p.index, terms: new Set(terms(p.text)) }));
  }

  push(delta: string): string {
    this.#pending += delta;
    let out = "";
    for (let match = SENTENCE_END.exec(this.#pending); match; match = SENTENCE_END.exec(this.#pending)) {
      const end = match.index + match[0].length;
      out += this.#mark(this.#pending.slice(0, end));
      this.#pending = this.#pending.slice(end);
    }
    return out;
  }

  flush(): string {
    const rest = this.#pending;
    this.#pending = "";
    return rest.trim() ? this.#mark(rest) : rest;
  }

  #mark(sentence: string): string {
    const words = new Set(terms(sentence));
    if (!words.size) return sentence;
    let best: { index: number; share: number } | null = null;
    for (const p of this.#passageTerms) {
      let shared = 0;
      for (const w of words) if (p.terms.has(w)) shared++;
      const share = shared / words.size;
      if (share >= MIN_OVERLAP && (!best || share > best.share)) best = { index: p.index, share };
    }
    if (!best) return sentence;
    this.cited.add(best.index);
    const trailing = sentence.match(/\s*$/)![0];
    return `${sentence.slice(0, sentence.length - trailing.length)}[${best.index}]${trailing}`;
  }
}
