/**
 * The keyword index of one knowledge base, kept in its Durable Object's SQLite storage: an inverted
 * index (term -> the documents that hold it, in the order they were added, with their term counts)
 * searched with BM25 and MaxScore dynamic pruning (Turtle and Flood, 1995). Query terms are sorted
 * by the most they can add to a score; once the best k scores found so far cannot be reached by a
 * document holding only the weakest terms, those terms' lists are no longer walked but only probed
 * (galloping search) for documents the stronger terms brought up.
 *
 * Storage, not memory: a base of 100,000 chunks holds ~19 million postings, more than a Durable
 * Object's 128 MB once the vectors are there too. A posting list is a series of blocks (rows of at
 * most ~4 KB, appended to at the end), each posting a varint of the gap from the previous document
 * shifted left by one, the low bit set when the term occurs more than once, then that count in one
 * byte (at most 255: BM25 saturates long before): a common term's posting is one byte. A query reads
 * its terms' rows; memory holds only each document's length and source (a few bytes per document).
 *
 * BM25 is FTS5's (k1 1.2, b 0.75, idf log((N - n + 0.5) / (n + 0.5)), at least 1e-6), over this
 * base's own documents. Removed documents stay in the lists as holes, skipped by search.
 */
import { TopK } from "../../../lib/top-k";

const K1 = 1.2;
const B = 0.75;
const MIN_IDF = 1e-6;
/** A block is closed once it holds this many bytes; the next postings start a new one. */
const BLOCK_BYTES = 4096;

/** A document as the index takes it: its terms with their counts, and its length in terms (stopwords included, as FTS5
 * counts). */
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

type TermRow = {
  term: string;
  live: number;
  size: number;
  last: number;
  max_tf: number;
  min_length: number;
  blocks: number;
  tail_bytes: number;
};

/** Appends postings (slot, count) to `out`, gaps counted from `last`; returns the new last slot. */
function encode(out: number[], last: number, slot: number, tf: number): number {
  let v = (slot - last) * 2 + (tf > 1 ? 1 : 0);
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  if (tf > 1) out.push(Math.min(tf, 255));
  return slot;
}

/** A list's blocks decoded: document slots (ascending) and their counts. */
function decode(blocks: ArrayBuffer[], size: number): { docs: Int32Array; tfs: Uint8Array } {
  const docs = new Int32Array(size);
  const tfs = new Uint8Array(size);
  let doc = 0;
  let i = 0;
  for (const block of blocks) {
    const b = new Uint8Array(block);
    for (let at = 0; at < b.length && i < size; i++) {
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
  }
  return { docs, tfs };
}

/** Postings waiting to be appended to one term's list. */
type Pending = { slots: number[]; tfs: number[]; minLength: number; maxTf: number };

function collect(lists: Map<string, Pending>, slot: number, length: number, terms: KeywordDocument["terms"]) {
  for (const [term, tf] of terms) {
    let list = lists.get(term);
    if (!list) lists.set(term, (list = { slots: [], tfs: [], minLength: length, maxTf: tf }));
    list.slots.push(slot);
    list.tfs.push(tf);
    list.minLength = Math.min(list.minLength, length);
    list.maxTf = Math.max(list.maxTf, tf);
  }
}

/** Documents read per step when the lists are rewritten. */
const COMPACT_PAGE = 2000;

export class KeywordIndex {
  /** Each slot's length (0: no document there), and its source as a code; loaded on first use. */
  private lengths: Int32Array | null = null;
  private sourceCodes = new Int32Array(0);
  private sources: string[] = [];
  private codeOf = new Map<string, number>();
  private totalLength = 0;
  /** Documents present. */
  size = 0;

  constructor(private sql: SqlStorage) {
    sql.exec(
      "CREATE TABLE IF NOT EXISTS keyword_documents (slot INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL " +
        "UNIQUE, type TEXT NOT NULL, source_id TEXT NOT NULL, length INTEGER NOT NULL, terms TEXT NOT NULL)",
    );
    sql.exec(
      "CREATE TABLE IF NOT EXISTS keyword_terms (term TEXT PRIMARY KEY, live INTEGER NOT NULL, size INTEGER " +
        "NOT NULL, last INTEGER NOT NULL, max_tf INTEGER NOT NULL, min_length INTEGER NOT NULL, blocks INTEGER " +
        "NOT NULL, tail_bytes INTEGER NOT NULL) WITHOUT ROWID",
    );
    sql.exec("CREATE TABLE IF NOT EXISTS keyword_holes (id INTEGER PRIMARY KEY CHECK (id = 1), n INTEGER NOT NULL)");
    sql.exec(
      "CREATE TABLE IF NOT EXISTS keyword_blocks (term TEXT NOT NULL, block INTEGER NOT NULL, data BLOB NOT " +
        "NULL, PRIMARY KEY (term, block)) WITHOUT ROWID",
    );
  }

  /** Documents stored. */
  count(): number {
    return this.lengths
      ? this.size
      : this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM keyword_documents").one().n;
  }

  /** Adds documents; one already present (by id) is replaced. */
  add(documents: KeywordDocument[]) {
    this.remove(documents.map((d) => d.id));
    const lists = new Map<string, Pending>();
    for (const doc of documents) {
      const { slot } = this.sql
        .exec<{ slot: number }>(
          "INSERT INTO keyword_documents (id, type, source_id, length, terms) VALUES (?, ?, ?, ?, ?) RETURNING slot",
          doc.id,
          doc.type,
          doc.sourceId,
          doc.length,
          JSON.stringify(doc.terms),
        )
        .one();
      if (this.lengths) this.remember(slot, doc.length, doc.sourceId);
      collect(lists, slot, doc.length, doc.terms);
    }
    this.append(lists);
  }

  /** Appends postings (slots above every slot already in the lists) to their terms' lists. */
  private append(lists: Map<string, Pending>) {
    // Each term's row, and the tail block of those whose postings join it, read in two statements.
    const rows = new Map(
      this.sql
        .exec<TermRow>(
          "SELECT * FROM keyword_terms WHERE term IN (SELECT value FROM json_each(?))",
          JSON.stringify([...lists.keys()]),
        )
        .toArray()
        .map((r) => [r.term, r]),
    );
    const tails = new Map(
      this.sql
        .exec<{ term: string; data: ArrayBuffer }>(
          "SELECT b.term, b.data FROM json_each(?) AS j JOIN keyword_blocks AS b ON b.term = j.value ->> " +
            "'$[0]' AND b.block = j.value ->> '$[1]'",
          JSON.stringify(
            [...rows.values()]
              .filter((r) => r.blocks > 0 && r.tail_bytes < BLOCK_BYTES)
              .map((r) => [r.term, r.blocks - 1]),
          ),
        )
        .toArray()
        .map((r) => [r.term, r.data]),
    );
    const updated: (string | number)[][] = [];
    for (const [term, list] of lists) {
      const row = rows.get(term);
      const bytes: number[] = [];
      let last = row?.last ?? 0;
      list.slots.forEach((slot, i) => {
        last = encode(bytes, last, slot, list.tfs[i]);
      });
      let blocks = row?.blocks ?? 0;
      let tail = row?.tail_bytes ?? 0;
      const data = tails.get(term);
      if (data && tail + bytes.length <= BLOCK_BYTES) {
        // Joined here, not with SQL's `||`, which makes text of blobs.
        const joined = new Uint8Array(data.byteLength + bytes.length);
        joined.set(new Uint8Array(data));
        joined.set(bytes, data.byteLength);
        this.sql.exec(
          "UPDATE keyword_blocks SET data = ? WHERE term = ? AND block = ?",
          joined.buffer,
          term,
          blocks - 1,
        );
        tail += bytes.length;
      } else {
        this.sql.exec(
          "INSERT INTO keyword_blocks (term, block, data) VALUES (?, ?, ?)",
          term,
          blocks++,
          Uint8Array.from(bytes).buffer,
        );
        tail = bytes.length;
      }
      updated.push([
        term,
        (row?.live ?? 0) + list.slots.length,
        (row?.size ?? 0) + list.slots.length,
        last,
        Math.max(row?.max_tf ?? 0, list.maxTf),
        Math.min(row?.min_length ?? Number.MAX_SAFE_INTEGER, list.minLength),
        blocks,
        tail,
      ]);
    }
    this.sql.exec(
      `INSERT OR REPLACE INTO keyword_terms (term, live, size, last, max_tf, min_length, blocks, tail_bytes)
       SELECT value ->> '$[0]', value ->> '$[1]', value ->> '$[2]', value ->> '$[3]',
              value ->> '$[4]', value ->> '$[5]', value ->> '$[6]', value ->> '$[7]'
       FROM json_each(?)`,
      JSON.stringify(updated),
    );
  }

  /** Removes documents by id (unknown ids are ignored): their terms' document counts go down, their postings become
   * holes. */
  remove(ids: string[]) {
    if (!ids.length) return;
    const rows = this.sql
      .exec<{ slot: number; terms: string; length: number }>(
        "SELECT slot, terms, length FROM keyword_documents WHERE id IN (SELECT value FROM json_each(?))",
        JSON.stringify(ids),
      )
      .toArray();
    if (!rows.length) return;
    // How many removed documents held each term.
    const held = new Map<string, number>();
    for (const r of rows)
      for (const [t] of JSON.parse(r.terms) as KeywordDocument["terms"]) held.set(t, (held.get(t) ?? 0) + 1);
    this.sql.exec(
      "UPDATE keyword_terms SET live = live - (j.value ->> '$[1]') FROM json_each(?) AS j WHERE " +
        "keyword_terms.term = j.value ->> '$[0]'",
      JSON.stringify([...held]),
    );
    this.sql.exec(
      "DELETE FROM keyword_documents WHERE slot IN (SELECT value FROM json_each(?))",
      JSON.stringify(rows.map((r) => r.slot)),
    );
    this.sql.exec(
      "INSERT INTO keyword_holes (id, n) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET n = n + excluded.n",
      rows.length,
    );
    for (const row of rows) {
      if (this.lengths && row.slot < this.lengths.length && this.lengths[row.slot] > 0) {
        this.lengths[row.slot] = 0;
        this.totalLength -= row.length;
        this.size--;
      }
    }
  }

  /** Documents removed (or replaced) since the lists were last rewritten: their postings are holes. */
  holes(): number {
    const [row] = this.sql.exec<{ n: number }>("SELECT n FROM keyword_holes WHERE id = 1").toArray();
    return row?.n ?? 0;
  }

  /** Whether enough documents were removed or replaced that rewriting the lists pays (a quarter, at least 1,000). */
  needsCompaction(): boolean {
    const holes = this.holes();
    return holes >= 1000 && holes > this.count() / 4;
  }

  /**
   * Rewrites every posting list from the documents present, in slot order, page by page: the
   * holes of removed documents go. Slots stay as they are (the gaps cost a byte here and there).
   */
  compact() {
    this.sql.exec("DELETE FROM keyword_terms");
    this.sql.exec("DELETE FROM keyword_blocks");
    for (let after = 0; ; ) {
      const page = this.sql
        .exec<{ slot: number; length: number; terms: string }>(
          "SELECT slot, length, terms FROM keyword_documents WHERE slot > ? ORDER BY slot LIMIT ?",
          after,
          COMPACT_PAGE,
        )
        .toArray();
      if (!page.length) break;
      const lists = new Map<string, Pending>();
      for (const d of page) collect(lists, d.slot, d.length, JSON.parse(d.terms) as KeywordDocument["terms"]);
      this.append(lists);
      after = page[page.length - 1].slot;
    }
    this.sql.exec("DELETE FROM keyword_holes");
  }

  /** Removes every document. */
  clear() {
    this.sql.exec("DELETE FROM keyword_documents");
    this.sql.exec("DELETE FROM keyword_terms");
    this.sql.exec("DELETE FROM keyword_blocks");
    this.sql.exec("DELETE FROM keyword_holes");
    this.lengths = null;
  }

  private remember(slot: number, length: number, source: string) {
    if (slot >= this.lengths!.length) {
      const lengths = new Int32Array(Math.max(slot + 1, this.lengths!.length * 2));
      const codes = new Int32Array(lengths.length);
      lengths.set(this.lengths!);
      codes.set(this.sourceCodes);
      this.lengths = lengths;
      this.sourceCodes = codes;
    }
    let code = this.codeOf.get(source);
    if (code === undefined) this.codeOf.set(source, (code = this.sources.push(source) - 1));
    this.lengths![slot] = length;
    this.sourceCodes[slot] = code;
    this.totalLength += length;
    this.size++;
  }

  private documents() {
    if (this.lengths) return this.lengths;
    const { max } = this.sql.exec<{ max: number | null }>("SELECT MAX(slot) AS max FROM keyword_documents").one();
    this.lengths = new Int32Array((max ?? 0) + 1);
    this.sourceCodes = new Int32Array(this.lengths.length);
    this.totalLength = 0;
    this.size = 0;
    for (const row of this.sql.exec<{ slot: number; length: number; source_id: string }>(
      "SELECT slot, length, source_id FROM keyword_documents",
    )) {
      this.remember(row.slot, row.length, row.source_id);
    }
    return this.lengths;
  }

  /**
   * The k best documents for the terms, best first (ties: earlier added first). `accept` filters by
   * source (a contact's restrictions); a filtered document never enters the results.
   */
  search(query: WeightedTerm[], k: number, accept?: ((sourceId: string) => boolean) | null): KeywordMatch[] {
    const lengths = this.documents();
    if (this.size === 0 || k < 1) return [];
    const n = this.size;
    const averageLength = this.totalLength / n || 1;
    const norm = (length: number) => K1 * (1 - B + (B * length) / averageLength);
    const lists: { p: { docs: Int32Array; tfs: Uint8Array; size: number }; w: number; bound: number; at: number }[] =
      [];
    for (const { term, weight } of query) {
      const [t] = this.sql.exec<TermRow>("SELECT * FROM keyword_terms WHERE term = ?", term).toArray();
      if (!t || t.live <= 0) continue;
      const w = weight * Math.max(MIN_IDF, Math.log((n - t.live + 0.5) / (t.live + 0.5)));
      const blocks = this.sql
        .exec<{ data: ArrayBuffer }>("SELECT data FROM keyword_blocks WHERE term = ? ORDER BY block", term)
        .toArray()
        .map((r) => r.data);
      // The most one occurrence of the term can add: its highest count in its shortest document.
      lists.push({
        p: { ...decode(blocks, t.size), size: t.size },
        w,
        bound: (w * t.max_tf * (K1 + 1)) / (t.max_tf + norm(t.min_length)),
        at: 0,
      });
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
    const sourceOk = accept ? new Map<number, boolean>() : null;
    for (;;) {
      let doc = Number.MAX_SAFE_INTEGER;
      for (let i = essential; i < lists.length; i++) {
        const l = lists[i];
        if (l.at < l.p.size && l.p.docs[l.at] < doc) doc = l.p.docs[l.at];
      }
      if (doc === Number.MAX_SAFE_INTEGER) break;
      const length = doc < lengths.length ? lengths[doc] : 0;
      const lengthNorm = norm(length);
      let score = 0;
      for (let i = essential; i < lists.length; i++) {
        const l = lists[i];
        if (l.at < l.p.size && l.p.docs[l.at] === doc) {
          const tf = l.p.tfs[l.at++];
          score += (l.w * tf * (K1 + 1)) / (tf + lengthNorm);
        }
      }
      // A hole: the document was removed (or replaced) since.
      if (length === 0) continue;
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
        const code = this.sourceCodes[doc];
        let ok = sourceOk.get(code);
        if (ok === undefined) sourceOk.set(code, (ok = accept!(this.sources[code])));
        if (!ok) continue;
      }
      heap.offer(score, doc);
      if (heap.full) {
        threshold = heap.min;
        while (essential < lists.length && upTo[essential] <= threshold) essential++;
      }
    }
    const best = heap.sorted();
    const rows = this.sql
      .exec<{ slot: number; id: string; type: KeywordMatch["type"]; source_id: string }>(
        "SELECT slot, id, type, source_id FROM keyword_documents WHERE slot IN (SELECT value FROM json_each(?))",
        JSON.stringify(best.map((b) => b.slot)),
      )
      .toArray();
    const bySlot = new Map(rows.map((r) => [r.slot, r]));
    return best.flatMap(({ slot, score }) => {
      const r = bySlot.get(slot);
      return r ? [{ id: r.id, type: r.type, sourceId: r.source_id, score }] : [];
    });
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
