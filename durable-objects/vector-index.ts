import { DurableObject } from "cloudflare:workers";
import type { Bindings } from "../src/env";
import type { VectorFilter, VectorMatch, VectorRecord } from "../src/services/knowledge/vector-store/types";
import { TopK } from "../src/lib/top-k";
import { sourcePredicate } from "../src/services/knowledge/vector-store/filter";
import { feedbackPassages, meanDirection, steered } from "../src/services/knowledge/retrieval/feedback";
import {
  KeywordIndex,
  type KeywordDocument,
  type KeywordMatch,
  type WeightedTerm,
} from "../src/services/knowledge/retrieval/keyword-index";
import {
  embedWithModel,
  MIN_TRAINING_CHUNKS,
  TRAINING_SAMPLE,
  trainCorpusModel,
  type CorpusModel,
} from "../src/services/knowledge/embeddings/corpus";
import { logError } from "../src/lib/log";

type VectorType = VectorRecord["type"];

/** One search of the knowledge base: its keyword leg, its vector leg, or both, in one call. */
export interface IndexSearch {
  keyword?: { terms: WeightedTerm[]; topK: number };
  /**
   * `values`: a query vector made elsewhere (a remote model); `text`: embed it here with the base's
   * model. `scan: false` only embeds (the vectors are in Vectorize), returned as `embedding`.
   */
  vector?: { topK: number; values?: number[]; text?: string; scan?: boolean };
  filter?: VectorFilter;
}

export interface IndexSearchResult {
  /** null while the keyword index is not known to hold the whole base (see keywordStatus). */
  keyword: KeywordMatch[] | null;
  vector: VectorMatch[];
  embedding?: number[];
}

/**
 * The index of one knowledge base, one instance per base. It holds the base's keyword index (an
 * inverted index with BM25 in its SQLite storage, src/services/knowledge/retrieval/keyword-index.ts: every
 * deployment), the base's corpus-trained embedding model (every deployment using the built-in
 * model) and, without a VECTORIZE binding, its vectors: the local vector store. For vectors SQLite
 * storage is the record; queries scan an in-memory copy loaded once per instance, int8 in one
 * buffer: a quarter of float32's memory, and a tight typed-array loop is the fastest scan JavaScript
 * has (Workers cannot compile WebAssembly SIMD at run time). Memory bounds it: 100,000 x 256
 * dimensions take 26 MB of the 128 MB; bigger knowledge bases belong in Vectorize. A sparse query
 * (the untrained local model's) is scored on its non-zero dimensions only; from 20,000 vectors a
 * dense one probes k-means lists (Slots.buildLists).
 */
export class VectorIndex extends DurableObject<Bindings> {
  private memory: Slots | null = null;
  /** The knowledge base's corpus-trained embedding (src/services/knowledge/embeddings/corpus.ts), loaded once. */
  private embedding: EmbeddingState | null = null;
  /** When a caller was granted the retraining (claimTraining); another is granted after the lease runs out. */
  private trainingSince = 0;
  private keywords: KeywordIndex | null = null;
  private keywordRebuildSince = 0;

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    // One row once the keyword index is known to hold every text of the base (markKeywordsComplete).
    ctx.storage.sql.exec(
      "CREATE TABLE IF NOT EXISTS keyword_state (id INTEGER PRIMARY KEY CHECK (id = 1), complete_at INTEGER NOT NULL)",
    );
    ctx.storage.sql.exec(
      "CREATE TABLE IF NOT EXISTS vectors (id TEXT PRIMARY KEY, type TEXT NOT NULL, source_id TEXT NOT NULL, " +
        "q BLOB NOT NULL)",
    );
    ctx.storage.sql.exec(
      "CREATE TABLE IF NOT EXISTS embedding_model (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT " +
        "NULL, trained_on INTEGER NOT NULL, documents INTEGER NOT NULL, k INTEGER NOT NULL, terms TEXT NOT " +
        "NULL, df BLOB NOT NULL, vectors BLOB NOT NULL, scales BLOB NOT NULL)",
    );
  }

  /**
   * The local embedding model's vectors for texts, with the version of the model that made them (0:
   * untrained, hashing only). Every embedding of the knowledge base goes through here, so documents
   * and queries always meet the same model.
   */
  embed(texts: string[]): { version: number; vectors: number[][] } {
    const { version, model } = this.embeddingState();
    return { version, vectors: texts.map((t) => embedWithModel(model, t)) };
  }

  /** The model's version and how many chunks the knowledge base held when it was trained. */
  embeddingVersion(): { version: number; trainedOn: number } {
    const { version, trainedOn } = this.embeddingState();
    return { version, trainedOn };
  }

  /**
   * Whether the caller should retrain now: the base has grown by half since the last training (so the
   * model has seen at least two thirds of it, and the total work stays proportional to its size) and no
   * other caller holds the training (a lease of 10 minutes).
   */
  claimTraining(chunks: number): boolean {
    const { trainedOn } = this.embeddingState();
    // The model learns from a sample of TRAINING_SAMPLE chunks: once it was trained on a base twice
    // that size, more text changes the sample's statistics little, so it retrains only when the base
    // has grown fourfold (each retraining re-embeds the whole base).
    const growth = trainedOn >= 2 * TRAINING_SAMPLE ? RETRAIN_GROWTH_LARGE : RETRAIN_GROWTH;
    if (chunks < MIN_TRAINING_CHUNKS || chunks < growth * trainedOn) return false;
    if (Date.now() - this.trainingSince < TRAINING_LEASE_MS) return false;
    this.trainingSince = Date.now();
    return true;
  }

  /** Trains the model on a sample of the base's texts and stores it as the next version; returns that version. */
  train(texts: string[], chunks: number): number {
    const model = trainCorpusModel(texts);
    const state = this.embeddingState();
    const version = state.version + 1;
    this.trainingSince = 0;
    // Nothing to learn from yet: the next try waits until the base has grown by half again.
    if (!model) return ((this.embedding = { ...state, trainedOn: chunks }), state.version);
    this.ctx.storage.sql.exec(
      "INSERT OR REPLACE INTO embedding_model (id, version, trained_on, documents, k, terms, df, vectors, " +
        "scales) VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?)",
      version,
      chunks,
      model.documents,
      model.k,
      JSON.stringify(model.terms),
      model.df.buffer,
      model.vectors.buffer,
      model.scales.buffer,
    );
    this.embedding = { version, trainedOn: chunks, model };
    return version;
  }

  upsert(records: VectorRecord[]): void {
    const slots = this.load();
    const quantised = records.map((r) => quantise(r.values));
    slots.checkDimensions(quantised);
    // Storage first: if it throws, memory still matches what is stored.
    const sql = this.ctx.storage.sql;
    records.forEach((r, i) => {
      sql.exec(
        "INSERT OR REPLACE INTO vectors (id, type, source_id, q) VALUES (?, ?, ?, ?)",
        r.id,
        r.type,
        r.sourceId,
        quantised[i].buffer,
      );
    });
    records.forEach((r, i) => {
      slots.put(r.id, r.type, r.sourceId, quantised[i]);
    });
    this.scheduleListBuild(slots);
  }

  /**
   * Large bases are searched through k-means lists (see Slots): built in an alarm once writes have
   * paused for a few seconds, so neither ingestion nor a search waits for it. Until then, and while
   * too much has changed since the last build, searches scan every vector: slower, never less exact.
   */
  private scheduleListBuild(slots: Slots) {
    if (slots.needsLists()) this.setAlarm("list build");
  }

  /** The alarm soon, for `work`: should storage refuse, searches stay exact (they scan) until the next write asks. */
  private setAlarm(work: string) {
    this.ctx.storage
      .setAlarm(Date.now() + LIST_BUILD_DELAY_MS)
      .catch((err) => logError(`vector index's ${work} not scheduled`, { error: String(err) }));
  }

  async alarm() {
    const slots = this.load();
    if (slots.needsLists()) slots.buildLists();
    const keywords = this.keywordIndex();
    if (keywords.needsCompaction()) keywords.compact();
  }

  /** The stored vectors of ids (unit length; those it holds). */
  vectorsOf(ids: string[]): number[][] {
    return this.load().vectorsOf(ids);
  }

  query(vector: number[], options: { topK: number; filter?: VectorFilter }): VectorMatch[] {
    return this.load().search(vector, options.topK, options.filter);
  }

  /** Both legs of a search in one call: the keyword index, and the query embedded and scanned here. */
  search(request: IndexSearch): IndexSearchResult {
    const { filter } = request;
    let keyword: KeywordMatch[] | null = [];
    if (request.keyword) {
      if (!this.keywordsComplete()) keyword = null;
      else {
        keyword = this.keywordIndex().search(request.keyword.terms, request.keyword.topK, sourcePredicate(filter));
      }
    }
    const v = request.vector;
    if (!v) return { keyword, vector: [] };
    const values = v.values ?? (v.text !== undefined ? embedWithModel(this.embeddingState().model, v.text) : null);
    if (!values) return { keyword, vector: [] };
    if (v.scan === false) return { keyword, vector: [], embedding: values };
    const slots = this.load();
    // Feedback: the query moves towards the keyword leg's best passages (src/services/knowledge/retrieval/feedback.ts).
    const passages = feedbackPassages(this.env);
    const direction =
      passages && keyword?.length ? meanDirection(slots.vectorsOf(keyword.slice(0, passages).map((m) => m.id))) : null;
    return { keyword, vector: slots.search(steered(values, direction), v.topK, filter) };
  }

  /** Adds texts to the keyword index (or replaces them, by id). */
  indexKeywords(documents: KeywordDocument[]): void {
    this.keywordIndex().add(documents);
    this.scheduleCompaction();
  }

  removeKeywords(ids: string[]): void {
    this.keywordIndex().remove(ids);
    this.scheduleCompaction();
  }

  /** Removed (or replaced) texts leave holes in the posting lists: rewritten in the alarm once they pile up. */
  private scheduleCompaction() {
    if (this.keywordIndex().needsCompaction()) this.setAlarm("compaction");
  }

  /**
   * "complete": the keyword index holds every text of the base; "unknown": it was created after the
   * base had content, or never told. The service fills it from D1 and then marks it complete.
   */
  keywordStatus(): { complete: boolean; documents: number } {
    return { complete: this.keywordsComplete(), documents: this.keywordIndex().count() };
  }

  /** Whether the caller should send the job that fills the keyword index (one per lease of 10 minutes). */
  claimKeywordRebuild(): boolean {
    if (this.keywordsComplete() || Date.now() - this.keywordRebuildSince < TRAINING_LEASE_MS) return false;
    this.keywordRebuildSince = Date.now();
    return true;
  }

  markKeywordsComplete(): void {
    this.ctx.storage.sql.exec("INSERT OR REPLACE INTO keyword_state (id, complete_at) VALUES (1, ?)", Date.now());
  }

  private keywordsComplete(): boolean {
    return this.ctx.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM keyword_state").one().n > 0;
  }

  private keywordIndex(): KeywordIndex {
    return (this.keywords ??= new KeywordIndex(this.ctx.storage.sql));
  }

  deleteByIds(ids: string[]): void {
    const slots = this.load();
    for (const id of ids) this.ctx.storage.sql.exec("DELETE FROM vectors WHERE id = ?", id);
    for (const id of ids) slots.remove(id);
    this.scheduleListBuild(slots);
  }

  count(): number {
    // Counting needs no scan, so it does not pay for loading every vector.
    return this.memory?.size ?? this.ctx.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM vectors").one().n;
  }

  clear(): void {
    this.ctx.storage.sql.exec("DELETE FROM vectors");
    this.keywordIndex().clear();
    this.ctx.storage.sql.exec("DELETE FROM embedding_model");
    this.memory = new Slots(0, 0);
    this.embedding = null;
  }

  private embeddingState(): EmbeddingState {
    if (this.embedding) return this.embedding;
    const [row] = this.ctx.storage.sql
      .exec<{
        version: number;
        trained_on: number;
        documents: number;
        k: number;
        terms: string;
        df: ArrayBuffer;
        vectors: ArrayBuffer;
        scales: ArrayBuffer;
      }>("SELECT version, trained_on, documents, k, terms, df, vectors, scales FROM embedding_model WHERE id = 1")
      .toArray();
    this.embedding = row
      ? {
          version: row.version,
          trainedOn: row.trained_on,
          model: {
            terms: JSON.parse(row.terms) as string[],
            df: new Int32Array(row.df),
            documents: row.documents,
            k: row.k,
            vectors: new Int8Array(row.vectors),
            scales: new Float32Array(row.scales),
          },
        }
      : { version: 0, trainedOn: 0, model: null };
    return this.embedding;
  }

  private load(): Slots {
    if (this.memory) return this.memory;
    const sql = this.ctx.storage.sql;
    const { n, d } = sql
      .exec<{ n: number; d: number | null }>("SELECT COUNT(*) AS n, MAX(length(q)) AS d FROM vectors")
      .one();
    const slots = new Slots(d ?? 0, n);
    const rows = sql.exec<{ id: string; type: VectorType; source_id: string; q: ArrayBuffer }>(
      "SELECT id, type, source_id, q FROM vectors",
    );
    for (const row of rows) slots.put(row.id, row.type, row.source_id, new Int8Array(row.q));
    this.memory = slots;
    this.scheduleListBuild(slots);
    return slots;
  }
}

/** k-means lists over the slots below `built`: list c holds members[offsets[c] .. offsets[c + 1]). */
interface Lists {
  built: number;
  count: number;
  /** Unit-length centroids, count x dims. */
  centroids: Float32Array;
  offsets: Int32Array;
  members: Int32Array;
}

interface EmbeddingState {
  version: number;
  trainedOn: number;
  model: CorpusModel | null;
}

const TRAINING_LEASE_MS = 10 * 60_000;
/** Quiet time after the last write before the k-means lists are (re)built. */
const LIST_BUILD_DELAY_MS = 3_000;
/** From this many vectors on, a dense query probes k-means lists instead of scanning every vector. */
export const LIST_MIN_VECTORS = 20_000;
/** Lists probed per query, and the share of vectors that may change (or be added) before the lists are rebuilt. */
const LIST_PROBES = 10;
const LIST_STALE_SHARE = 0.2;
/** Retrain when the base holds this many times the chunks the model was trained on. */
const RETRAIN_GROWTH = 1.5;
const RETRAIN_GROWTH_LARGE = 4;

const SCALE = 127;
/** The query is scaled to integers this large: exact int32 sums for up to 16,384 dimensions. */
const QUERY_SCALE = 65_536;

/** The vector normalised and scaled to -127..127. */
function quantise(values: number[]): Int8Array {
  const norm = Math.hypot(...values);
  if (!Number.isFinite(norm)) throw new Error("A vector holds a value that is not a finite number.");
  const q = new Int8Array(values.length);
  if (norm > 0) for (let i = 0; i < values.length; i++) q[i] = Math.round((values[i] / norm) * SCALE);
  return q;
}

/**
 * Vectors in one buffer (slot i at i * stride bytes, the stride padded with zeros to whole 32-bit
 * words) with parallel arrays; deletes swap the last slot in.
 */
class Slots {
  size = 0;
  private stride = 0;
  private data: Int8Array = new Int8Array(0);
  /** The same bytes read four at a time (little-endian, as on every Workers host). */
  private words: Int32Array = new Int32Array(0);
  /** Length of each quantised vector, so that scores are cosines of what is stored, not of 127-scaled guesses. */
  private norms: Float32Array;
  /** Each slot's source as an index into `sources`: filters then test integers, not strings. */
  private codes: Int32Array;
  private sources: string[] = [];
  private codeOf = new Map<string, number>();
  private ids: string[] = [];
  private types: VectorType[] = [];
  private slotOf = new Map<string, number>();
  /** The inverted-file lists of the slots below `lists.built`, null before a build or after a removal. */
  private lists: Lists | null = null;
  /** Vectors replaced since the lists were built (slots added since are `size - lists.built`). */
  private changed = 0;

  constructor(
    private dims: number,
    capacity: number,
  ) {
    this.norms = new Float32Array(Math.max(16, capacity));
    this.codes = new Int32Array(this.norms.length);
    this.reshape(dims);
  }

  /** One dimension count per knowledge base: a new embedding model means clearing it first. */
  checkDimensions(vectors: Int8Array[]) {
    if (this.size === 0 && vectors.length > 0 && this.dims !== vectors[0].length) this.reshape(vectors[0].length);
    const wrong = vectors.find((v) => v.length !== this.dims || v.length === 0);
    if (wrong) throw new Error(`This knowledge base holds vectors of ${this.dims} dimensions, not ${wrong.length}.`);
  }

  put(id: string, type: VectorType, sourceId: string, q: Int8Array) {
    let slot = this.slotOf.get(id);
    if (slot === undefined) {
      if (this.size === this.norms.length) this.grow();
      slot = this.size++;
      this.slotOf.set(id, slot);
      this.ids[slot] = id;
    } else if (this.lists && slot < this.lists.built) this.changed++;
    this.data.set(q, slot * this.stride);
    this.norms[slot] = Math.hypot(...q);
    this.types[slot] = type;
    let code = this.codeOf.get(sourceId);
    if (code === undefined) this.codeOf.set(sourceId, (code = this.sources.push(sourceId) - 1));
    this.codes[slot] = code;
  }

  remove(id: string) {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    // The last slot moves into this one: the lists would point at the wrong vectors.
    this.lists = null;
    const last = --this.size;
    if (slot !== last) {
      this.data.copyWithin(slot * this.stride, last * this.stride, (last + 1) * this.stride);
      this.norms[slot] = this.norms[last];
      this.ids[slot] = this.ids[last];
      this.types[slot] = this.types[last];
      this.codes[slot] = this.codes[last];
      this.slotOf.set(this.ids[slot], slot);
    }
    this.ids.length = this.types.length = last;
    this.slotOf.delete(id);
  }

  /** The stored vectors of `ids` (those it holds), each scaled to unit length. */
  vectorsOf(ids: string[]): number[][] {
    const out: number[][] = [];
    for (const id of ids) {
      const slot = this.slotOf.get(id);
      if (slot === undefined || !(this.norms[slot] > 0)) continue;
      const o = slot * this.stride;
      out.push(Array.from(this.data.subarray(o, o + this.dims), (x) => x / this.norms[slot]));
    }
    return out;
  }

  search(vector: number[], topK: number, filter?: VectorFilter): VectorMatch[] {
    if (this.size === 0 || !(topK >= 1)) return [];
    if (vector.length !== this.dims)
      throw new Error(`This knowledge base holds vectors of ${this.dims} dimensions; the query has ${vector.length}.`);
    const qNorm = Math.hypot(...vector);
    if (!(qNorm > 0) || !Number.isFinite(qNorm)) return [];
    const q = new Int32Array(this.stride);
    for (let i = 0; i < vector.length; i++) q[i] = Math.round((vector[i] / qNorm) * QUERY_SCALE);
    const accepts = sourcePredicate(filter);
    let candidates: Int32Array | null = null;
    if (accepts) {
      const allowed = this.sources.map(accepts);
      let n = 0;
      candidates = new Int32Array(this.size);
      for (let s = 0; s < this.size; s++) if (allowed[this.codes[s]]) candidates[n++] = s;
      candidates = candidates.subarray(0, n);
    }
    const heap = new TopK(Math.min(Math.floor(topK), candidates?.length ?? this.size));
    const n = candidates?.length ?? this.size;
    const nonZero = q.reduce((count, x) => count + (x === 0 ? 0 : 1), 0);
    if (nonZero * SPARSE_RATIO < this.dims) scanSparse(this.data, this.stride, q, candidates, n, this.norms, heap);
    else if (this.listsUsable()) {
      const probed = this.probe(q, candidates);
      scan(this.words, this.stride >> 2, q, probed, probed.length, this.norms, heap);
    } else scan(this.words, this.stride >> 2, q, candidates, n, this.norms, heap);
    return heap.sorted().map(({ slot, score }) => ({
      id: this.ids[slot],
      score: Math.max(-1, Math.min(1, score)),
      type: this.types[slot],
      sourceId: this.sources[this.codes[slot]],
    }));
  }

  /** Whether a build is due: the base is large and has no lists, or too much changed since they were built. */
  needsLists(): boolean {
    return this.size >= LIST_MIN_VECTORS && !this.listsUsable(0.5 * LIST_STALE_SHARE);
  }

  private listsUsable(share = LIST_STALE_SHARE): boolean {
    return !!this.lists && this.changed + (this.size - this.lists.built) <= share * this.size;
  }

  /**
   * Builds the inverted-file lists (IVF): k-means centroids (about √n / 2 of them, from a spread sample
   * of 20 vectors per centroid, six rounds of Lloyd's algorithm, cosine), then every vector in the list
   * of its nearest centroid. A dense query then scores the centroids and scans the LIST_PROBES best
   * lists, plus every vector added since the build: a few percent of the base instead of all of it.
   */
  buildLists() {
    const n = this.size;
    const d = this.dims;
    const count = Math.max(16, Math.round(Math.sqrt(n) / 2));
    const step = Math.max(1, Math.floor(n / (count * 20)));
    const sample: number[] = [];
    for (let s = 0; s < n; s += step) sample.push(s);
    const centroids = new Float32Array(count * d);
    // Start from sample vectors spread over the base.
    for (let c = 0; c < count; c++) {
      const s = sample[Math.floor((c * sample.length) / count)];
      for (let j = 0; j < d; j++) centroids[c * d + j] = this.data[s * this.stride + j] / (this.norms[s] || 1);
    }
    const nearest = (s: number) => {
      let best = 0;
      let bestScore = -Infinity;
      const o = s * this.stride;
      for (let c = 0; c < count; c++) {
        let dot = 0;
        const co = c * d;
        for (let j = 0; j < d; j++) dot += this.data[o + j] * centroids[co + j];
        if (dot > bestScore) (bestScore = dot), (best = c);
      }
      return best;
    };
    for (let round = 0; round < 6; round++) {
      const sums = new Float64Array(count * d);
      for (const s of sample) {
        const c = nearest(s);
        const o = s * this.stride;
        const w = 1 / (this.norms[s] || 1);
        for (let j = 0; j < d; j++) sums[c * d + j] += this.data[o + j] * w;
      }
      for (let c = 0; c < count; c++) {
        let norm = 0;
        for (let j = 0; j < d; j++) norm += sums[c * d + j] ** 2;
        norm = Math.sqrt(norm);
        // A centroid that drew no vectors keeps its place.
        if (norm > 0) for (let j = 0; j < d; j++) centroids[c * d + j] = sums[c * d + j] / norm;
      }
    }
    const of = new Int32Array(n);
    const offsets = new Int32Array(count + 1);
    for (let s = 0; s < n; s++) offsets[(of[s] = nearest(s)) + 1]++;
    for (let c = 0; c < count; c++) offsets[c + 1] += offsets[c];
    const members = new Int32Array(n);
    const at = offsets.slice(0, count);
    for (let s = 0; s < n; s++) members[at[of[s]]++] = s;
    this.lists = { built: n, count, centroids, offsets, members };
    this.changed = 0;
  }

  /** The slots of the lists nearest the query, and every slot added since the build; only `allowed` ones when given. */
  private probe(q: Int32Array, allowed: Int32Array | null): Int32Array {
    const lists = this.lists!;
    const d = this.dims;
    const scores = new Float64Array(lists.count);
    for (let c = 0; c < lists.count; c++) {
      let dot = 0;
      for (let j = 0; j < d; j++) dot += q[j] * lists.centroids[c * d + j];
      scores[c] = dot;
    }
    const order = Array.from(scores.keys())
      .sort((a, b) => scores[b] - scores[a])
      .slice(0, LIST_PROBES);
    const allowedSet = allowed ? new Uint8Array(this.size) : null;
    if (allowedSet) for (const s of allowed!) allowedSet[s] = 1;
    const out: number[] = [];
    for (const c of order) {
      for (let i = lists.offsets[c]; i < lists.offsets[c + 1]; i++) {
        const s = lists.members[i];
        if (!allowedSet || allowedSet[s]) out.push(s);
      }
    }
    for (let s = lists.built; s < this.size; s++) if (!allowedSet || allowedSet[s]) out.push(s);
    return Int32Array.from(out);
  }

  private grow() {
    const old = { norms: this.norms, codes: this.codes, data: this.data };
    this.norms = new Float32Array(old.norms.length * 2);
    this.codes = new Int32Array(this.norms.length);
    this.reshape(this.dims);
    this.norms.set(old.norms);
    this.codes.set(old.codes);
    this.data.set(old.data);
  }

  /** New, empty buffers for the current capacity; `grow` copies the old contents back in. */
  private reshape(dims: number) {
    this.dims = dims;
    this.stride = Math.ceil(dims / 4) * 4;
    this.data = new Int8Array(this.norms.length * this.stride);
    this.words = new Int32Array(this.data.buffer);
  }
}

/**
 * Offers the cosine of each candidate (every slot below `n` when `candidates` is null) to `heap`.
 * The hot loop, about 1.5x a plain byte loop: it reads int8 values four at a time from 32-bit words,
 * multiplies them with the integer query in exact int32 arithmetic, and scores two vectors per pass
 * so that each query value is loaded once for both.
 */
function scan(
  words: Int32Array,
  w: number,
  q: Int32Array,
  candidates: Int32Array | null,
  n: number,
  norms: Float32Array,
  heap: TopK,
) {
  for (let i = 0; i < n; i += 2) {
    const s0 = candidates ? candidates[i] : i;
    // An odd last candidate is paired with itself and offered once.
    const s1 = i + 1 < n ? (candidates ? candidates[i + 1] : i + 1) : s0;
    const o0 = s0 * w,
      o1 = s1 * w;
    let a0 = 0,
      a1 = 0;
    for (let j = 0, k = 0; j < w; j++, k += 4) {
      const x = q[k],
        y = q[k + 1],
        z = q[k + 2],
        t = q[k + 3];
      const v0 = words[o0 + j],
        v1 = words[o1 + j];
      a0 = (a0 + ((v0 << 24) >> 24) * x + ((v0 << 16) >> 24) * y + ((v0 << 8) >> 24) * z + (v0 >> 24) * t) | 0;
      a1 = (a1 + ((v1 << 24) >> 24) * x + ((v1 << 16) >> 24) * y + ((v1 << 8) >> 24) * z + (v1 >> 24) * t) | 0;
    }
    // A zero vector (norm 0) gives 0 / 0: NaN, scored 0.
    heap.offer(a0 / (norms[s0] * QUERY_SCALE) || 0, s0);
    if (s1 !== s0) heap.offer(a1 / (norms[s1] * QUERY_SCALE) || 0, s1);
  }
}

/**
 * A query with few non-zero dimensions (the local model's queries: a few words' hashed features)
 * is scored on those dimensions only: exactly the same sums, with a fraction of the work. Below
 * this share of non-zero dimensions the sparse loop wins over the word-packed one.
 */
const SPARSE_RATIO = 3;

function scanSparse(
  data: Int8Array,
  stride: number,
  q: Int32Array,
  candidates: Int32Array | null,
  n: number,
  norms: Float32Array,
  heap: TopK,
) {
  const dims: number[] = [];
  for (let i = 0; i < q.length; i++) if (q[i] !== 0) dims.push(i);
  const at = Int32Array.from(dims);
  const value = Int32Array.from(dims, (i) => q[i]);
  const m = at.length;
  for (let i = 0; i < n; i++) {
    const s = candidates ? candidates[i] : i;
    const o = s * stride;
    let a = 0;
    for (let k = 0; k < m; k++) a = (a + data[o + at[k]] * value[k]) | 0;
    heap.offer(a / (norms[s] * QUERY_SCALE) || 0, s);
  }
}
