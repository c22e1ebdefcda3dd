/**
 * The keyword index of one knowledge base, in memory: an inverted index (term -> the documents that
 * hold it, in insertion order, with their term frequencies) searched with BM25 and MaxScore dynamic
 * pruning (Turtle and Flood, 1995). Terms are sorted by the most they can add to a score; once the
 * best k scores found so far cannot be reached by a document that holds only the weakest terms,
 * those terms' lists are no longer walked but only probed (galloping search) for documents the
 * stronger terms brought up. A query made of one rare and two common words then reads the rare
 * word's short list and a few probes into the long ones, instead of every document that has a
 * common word: the cost follows the answer, not the size of the base.
 *
 * BM25 is FTS5's (k1 1.2, b 0.75, idf log((N - n + 0.5) / (n + 0.5)), at least 1e-6), over this
 * base's own documents. The owner (durable-objects/vector-index.ts) persists documents and rebuilds
 * this from them; removals leave holes that `holes` counts, and the owner rebuilds when they pile up.
 */
import { TopK } from "../../lib/top-k";

const K1 = 1.2;
const B = 0.75;
const MIN_IDF = 1e-6;

/** A document as the index takes it: its terms with their counts, and its length in terms (stopwords included, as FTS5 counts). */
export interface KeywordDocument {
  id: string;
  type: "text_node" | "faq";
  sourceId: string;
  length: number;
  /** Each distinct term once, with how often the document has it. */
  terms: [term: string, count: number][];
}

export interface KeywordMatch {
  id: string;
  type: "text_node" | "faq";
  sourceId: string;
  /** BM25, larger is better. */
  score: number;
}

/** A query term and how much it weighs (how often the query says it, at most 3). */
export interface WeightedTerm {
  term: string;
  weight: number;
}

/**
 * One term's posting list, compressed: per document, the gap from the previous document's slot
 * shifted left by one, with the low bit set when the term occurs more than once, as a varint; then
 * that count (at most 255: BM25 saturates long before) in one byte. A common term's entry is one
 * byte, so 100,000 chunks of 800 characters fit in tens of megabytes rather than hundreds.
 */
class Postings {
  bytes = new Uint8Array(8);
  used = 0;
  size = 0;
  /** Documents still present that hold the term (BM25's n). */
  live = 0;
  last = -1;
  maxTf = 0;
  minLength = Number.MAX_SAFE_INTEGER;

  add(slot: number, tf: number, length: number) {
    if (this.used + 6 > this.bytes.length) {
      const bytes = new Uint8Array(Math.max(16, this.bytes.length * 2));
      bytes.set(this.bytes.subarray(0, this.used));
      this.bytes = bytes;
    }
    let v = (slot - this.last) * 2 + (tf > 1 ? 1 : 0);
    while (v >= 0x80) {
      this.bytes[this.used++] = (v & 0x7f) | 0x80;
      v = Math.floor(v / 128);
    }
    this.bytes[this.used++] = v;
    if (tf > 1) this.bytes[this.used++] = Math.min(tf, 255);
    this.last = slot;
    this.size++;
    this.live++;
    if (tf > this.maxTf) this.maxTf = tf;
    if (length < this.minLength) this.minLength = length;
  }

  /** The list decoded: document slots (ascending) and their counts. */
  decode(): { docs: Int32Array; tfs: Uint8Array } {
    const docs = new Int32Array(this.size);
    const tfs = new Uint8Array(this.size);
    const b = this.bytes;
    let doc = -1;
    for (let i = 0, at = 0; i < this.size; i++) {
      let v = 0;
      let scale = 1;
      let byte: number;
      do {
        byte = b[at++];
        v += (byte & 0x7f) * scale;
        scale *= 128;
      } while (byte & 0x80);
      doc += Math.floor(v / 2);
      docs[i] = doc;
      tfs[i] = v & 1 ? b[at++] : 1;
    }
    return { docs, tfs };
  }

  trim() {
    if (this.bytes.length > this.used) this.bytes = this.bytes.slice(0, this.used);
  }
}

export class KeywordIndex {
  private postings = new Map<string, Postings>();
  private ids: string[] = [];
  private types: ("text_node" | "faq")[] = [];
  private sources: string[] = [];
  private lengths = new Int32Array(16);
  private alive = new Uint8Array(16);
  private slotOf = new Map<string, number>();
  private totalLength = 0;
  /** Documents present. */
  size = 0;
  /** Slots of removed or replaced documents. */
  holes = 0;

  /** Adds documents; one already present must be removed first (its old terms are the owner's to know). */
  add(documents: KeywordDocument[]) {
    for (const doc of documents) {
      if (this.slotOf.has(doc.id)) throw new Error(`Document ${doc.id} is already indexed.`);
      const slot = this.ids.length;
      if (slot === this.lengths.length) {
        const lengths = new Int32Array(slot * 2);
        const alive = new Uint8Array(slot * 2);
        lengths.set(this.lengths);
        alive.set(this.alive);
        this.lengths = lengths;
        this.alive = alive;
      }
      this.ids.push(doc.id);
      this.types.push(doc.type);
      this.sources.push(doc.sourceId);
      this.lengths[slot] = doc.length;
      this.alive[slot] = 1;
      this.slotOf.set(doc.id, slot);
      this.totalLength += doc.length;
      this.size++;
      for (const [term, tf] of doc.terms) {
        let list = this.postings.get(term);
        if (!list) this.postings.set(term, (list = new Postings()));
        list.add(slot, tf, doc.length);
      }
    }
  }

  /** Removes a document; `terms` are its terms as added (so that each term's document count stays exact). */
  remove(id: string, terms: KeywordDocument["terms"]) {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    this.slotOf.delete(id);
    this.alive[slot] = 0;
    this.totalLength -= this.lengths[slot];
    this.size--;
    this.holes++;
    for (const [term] of terms) {
      const list = this.postings.get(term);
      if (list) list.live--;
    }
  }

  /** Releases the spare room of every posting list (after a bulk load). */
  trim() {
    for (const p of this.postings.values()) p.trim();
  }

  has(id: string) {
    return this.slotOf.has(id);
  }

  /**
   * The k best documents for the terms, best first (ties: earlier added first). `accept` filters by
   * source (a contact's restrictions); a filtered document never enters the results.
   */
  search(query: WeightedTerm[], k: number, accept?: (sourceId: string) => boolean): KeywordMatch[] {
    if (this.size === 0 || k < 1) return [];
    const n = this.size;
    const averageLength = this.totalLength / n || 1;
    const norm = (length: number) => K1 * (1 - B + (B * length) / averageLength);
    const lists: { p: { docs: Int32Array; tfs: Uint8Array; size: number }; w: number; bound: number; at: number }[] = [];
    for (const { term, weight } of query) {
      const p = this.postings.get(term);
      if (!p || p.live <= 0) continue;
      const w = weight * Math.max(MIN_IDF, Math.log((n - p.live + 0.5) / (p.live + 0.5)));
      // The most one occurrence of the term can add: its highest count in its shortest document.
      lists.push({ p: { ...p.decode(), size: p.size }, w, bound: (w * p.maxTf * (K1 + 1)) / (p.maxTf + norm(p.minLength)), at: 0 });
    }
    if (!lists.length) return [];
    lists.sort((a, b) => a.bound - b.bound);
    // upTo[i]: the most lists 0..i can add together.
    const upTo = new Float64Array(lists.length);
    lists.reduce((sum, l, i) => (upTo[i] = sum + l.bound), 0);

    const heap = new TopK(k);
    let threshold = 0;
    // Lists below `essential` cannot bring a document into the results on their own.
    let essential = 0;
    const lengths = this.lengths;
    const alive = this.alive;
    const sourceOk = accept ? new Map<string, boolean>() : null;
    for (;;) {
      let doc = Number.MAX_SAFE_INTEGER;
      for (let i = essential; i < lists.length; i++) {
        const l = lists[i];
        if (l.at < l.p.size && l.p.docs[l.at] < doc) doc = l.p.docs[l.at];
      }
      if (doc === Number.MAX_SAFE_INTEGER) break;
      const lengthNorm = norm(lengths[doc]);
      let score = 0;
      for (let i = essential; i < lists.length; i++) {
        const l = lists[i];
        if (l.at < l.p.size && l.p.docs[l.at] === doc) {
          const tf = l.p.tfs[l.at++];
          score += (l.w * tf * (K1 + 1)) / (tf + lengthNorm);
        }
      }
      if (!alive[doc]) continue;
      for (let i = essential - 1; i >= 0 && score + upTo[i] > threshold; i--) {
        const l = lists[i];
        l.at = seek(l.p.docs, l.at, l.p.size, doc);
        if (l.at < l.p.size && l.p.docs[l.at] === doc) {
          const tf = l.p.tfs[l.at];
          score += (l.w * tf * (K1 + 1)) / (tf + lengthNorm);
        }
      }
      if (score <= threshold && heap.full) continue;
      if (sourceOk) {
        const source = this.sources[doc];
        let ok = sourceOk.get(source);
        if (ok === undefined) sourceOk.set(source, (ok = accept!(source)));
        if (!ok) continue;
      }
      heap.offer(score, doc);
      if (heap.full) {
        threshold = heap.min;
        while (essential < lists.length && upTo[essential] <= threshold) essential++;
      }
    }
    return heap.sorted().map(({ slot, score }) => ({ id: this.ids[slot], type: this.types[slot], sourceId: this.sources[slot], score }));
  }
}

/** The first position at or after `from` whose document is at least `doc` (galloping, then binary search). */
function seek(docs: Int32Array, from: number, size: number, doc: number): number {
  if (from >= size || docs[from] >= doc) return from;
  let step = 1;
  let lo = from;
  let hi = from + 1;
  while (hi < size && docs[hi] < doc) {
    lo = hi;
    step *= 2;
    hi = from + step;
  }
  if (hi > size) hi = size;
  // docs[lo] < doc; the answer is in (lo, hi].
  while (lo + 1 < hi) {
    const mid = (lo + hi) >> 1;
    if (docs[mid] < doc) lo = mid;
    else hi = mid;
  }
  return hi;
}
