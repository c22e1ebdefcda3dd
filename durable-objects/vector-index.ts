import { DurableObject } from "cloudflare:workers";
import type { Bindings } from "../src/env";
import type { VectorFilter, VectorMatch, VectorRecord } from "../src/services/vector-store/types";
import { embedWithModel, MIN_TRAINING_CHUNKS, trainCorpusModel, type CorpusModel } from "../src/services/embeddings/corpus";

type VectorType = VectorRecord["type"];

/**
 * The local vector store (used without a VECTORIZE binding): one instance per knowledge base, brute
 * force. SQLite storage is the record; queries scan an in-memory copy loaded once per instance, int8
 * in one buffer: a quarter of float32's memory, and a tight typed-array loop is the fastest scan
 * JavaScript has (Workers cannot compile WebAssembly SIMD at run time). Memory bounds it: 100,000 x
 * 256 dimensions take 26 MB of the 128 MB; bigger knowledge bases belong in Vectorize. A sparse
 * query (the local model's) is scored on its non-zero dimensions only.
 */
export class VectorIndex extends DurableObject<Bindings> {
  private memory: Slots | null = null;
  /** The knowledge base's corpus-trained embedding (src/services/embeddings/corpus.ts), loaded once. */
  private embedding: EmbeddingState | null = null;
  /** When a caller was granted the retraining (claimTraining); another is granted after the lease runs out. */
  private trainingSince = 0;

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS vectors (id TEXT PRIMARY KEY, type TEXT NOT NULL, source_id TEXT NOT NULL, q BLOB NOT NULL)");
    ctx.storage.sql.exec(
      "CREATE TABLE IF NOT EXISTS embedding_model (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL, trained_on INTEGER NOT NULL, documents INTEGER NOT NULL, k INTEGER NOT NULL, terms TEXT NOT NULL, df BLOB NOT NULL, vectors BLOB NOT NULL, scales BLOB NOT NULL)",
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
    if (chunks < MIN_TRAINING_CHUNKS || chunks < RETRAIN_GROWTH * trainedOn) return false;
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
      "INSERT OR REPLACE INTO embedding_model (id, version, trained_on, documents, k, terms, df, vectors, scales) VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?)",
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
    records.forEach((r, i) => sql.exec("INSERT OR REPLACE INTO vectors (id, type, source_id, q) VALUES (?, ?, ?, ?)", r.id, r.type, r.sourceId, quantised[i].buffer));
    records.forEach((r, i) => slots.put(r.id, r.type, r.sourceId, quantised[i]));
  }

  query(vector: number[], options: { topK: number; filter?: VectorFilter }): VectorMatch[] {
    return this.load().search(vector, options.topK, options.filter);
  }

  deleteByIds(ids: string[]): void {
    const slots = this.load();
    for (const id of ids) this.ctx.storage.sql.exec("DELETE FROM vectors WHERE id = ?", id);
    for (const id of ids) slots.remove(id);
  }

  count(): number {
    // Counting needs no scan, so it does not pay for loading every vector.
    return this.memory?.size ?? this.ctx.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM vectors").one().n;
  }

  clear(): void {
    this.ctx.storage.sql.exec("DELETE FROM vectors");
    this.ctx.storage.sql.exec("DELETE FROM embedding_model");
    this.memory = new Slots(0, 0);
    this.embedding = null;
  }

  private embeddingState(): EmbeddingState {
    if (this.embedding) return this.embedding;
    const [row] = this.ctx.storage.sql
      .exec<{ version: number; trained_on: number; documents: number; k: number; terms: string; df: ArrayBuffer; vectors: ArrayBuffer; scales: ArrayBuffer }>(
        "SELECT version, trained_on, documents, k, terms, df, vectors, scales FROM embedding_model WHERE id = 1",
      )
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
    const { n, d } = sql.exec<{ n: number; d: number | null }>("SELECT COUNT(*) AS n, MAX(length(q)) AS d FROM vectors").one();
    const slots = new Slots(d ?? 0, n);
    const rows = sql.exec<{ id: string; type: VectorType; source_id: string; q: ArrayBuffer }>("SELECT id, type, source_id, q FROM vectors");
    for (const row of rows) slots.put(row.id, row.type, row.source_id, new Int8Array(row.q));
    this.memory = slots;
    return slots;
  }
}

interface EmbeddingState {
  version: number;
  trainedOn: number;
  model: CorpusModel | null;
}

const TRAINING_LEASE_MS = 10 * 60_000;
/** Retrain when the base holds this many times the chunks the model was trained on. */
const RETRAIN_GROWTH = 1.5;

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
    }
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

  search(vector: number[], topK: number, filter?: VectorFilter): VectorMatch[] {
    if (this.size === 0 || !(topK >= 1)) return [];
    if (vector.length !== this.dims) throw new Error(`This knowledge base holds vectors of ${this.dims} dimensions; the query has ${vector.length}.`);
    const qNorm = Math.hypot(...vector);
    if (!(qNorm > 0) || !Number.isFinite(qNorm)) return [];
    const q = new Int32Array(this.stride);
    for (let i = 0; i < vector.length; i++) q[i] = Math.round((vector[i] / qNorm) * QUERY_SCALE);
    const only = filter?.sourceIds?.in ? new Set(filter.sourceIds.in) : null;
    const except = filter?.sourceIds?.notIn?.length ? new Set(filter.sourceIds.notIn) : null;
    let candidates: Int32Array | null = null;
    if (only || except) {
      const allowed = this.sources.map((source) => (!only || only.has(source)) && !except?.has(source));
      let n = 0;
      candidates = new Int32Array(this.size);
      for (let s = 0; s < this.size; s++) if (allowed[this.codes[s]]) candidates[n++] = s;
      candidates = candidates.subarray(0, n);
    }
    const heap = new TopK(Math.min(Math.floor(topK), candidates?.length ?? this.size));
    const n = candidates?.length ?? this.size;
    const nonZero = q.reduce((count, x) => count + (x === 0 ? 0 : 1), 0);
    if (nonZero * SPARSE_RATIO < this.dims) scanSparse(this.data, this.stride, q, candidates, n, this.norms, heap);
    else scan(this.words, this.stride >> 2, q, candidates, n, this.norms, heap);
    return heap.sorted().map(({ slot, score }) => ({ id: this.ids[slot], score: Math.max(-1, Math.min(1, score)), type: this.types[slot], sourceId: this.sources[this.codes[slot]] }));
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
function scan(words: Int32Array, w: number, q: Int32Array, candidates: Int32Array | null, n: number, norms: Float32Array, heap: TopK) {
  for (let i = 0; i < n; i += 2) {
    const s0 = candidates ? candidates[i] : i;
    // An odd last candidate is paired with itself and offered once.
    const s1 = i + 1 < n ? (candidates ? candidates[i + 1] : i + 1) : s0;
    const o0 = s0 * w, o1 = s1 * w;
    let a0 = 0, a1 = 0;
    for (let j = 0, k = 0; j < w; j++, k += 4) {
      const x = q[k], y = q[k + 1], z = q[k + 2], t = q[k + 3];
      const v0 = words[o0 + j], v1 = words[o1 + j];
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

function scanSparse(data: Int8Array, stride: number, q: Int32Array, candidates: Int32Array | null, n: number, norms: Float32Array, heap: TopK) {
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

/** A min-heap of the best `k` scores seen, the worst at the root: O(n log k), no sort of every score. */
class TopK {
  private scores: Float64Array;
  private slots: Int32Array;
  private n = 0;

  constructor(private k: number) {
    this.scores = new Float64Array(k);
    this.slots = new Int32Array(k);
  }

  offer(score: number, slot: number) {
    let i: number;
    if (this.n < this.k) {
      // Sift up from the new leaf.
      for (i = this.n++; i > 0 && this.scores[(i - 1) >> 1] > score; i = (i - 1) >> 1) {
        this.scores[i] = this.scores[(i - 1) >> 1];
        this.slots[i] = this.slots[(i - 1) >> 1];
      }
    } else if (score > this.scores[0]) {
      // Replace the root (the worst kept) and sift down.
      for (i = 0; 2 * i + 1 < this.n; ) {
        const left = 2 * i + 1;
        const child = left + 1 < this.n && this.scores[left + 1] < this.scores[left] ? left + 1 : left;
        if (this.scores[child] >= score) break;
        this.scores[i] = this.scores[child];
        this.slots[i] = this.slots[child];
        i = child;
      }
    } else return;
    this.scores[i] = score;
    this.slots[i] = slot;
  }

  sorted(): { score: number; slot: number }[] {
    return Array.from({ length: this.n }, (_, i) => ({ score: this.scores[i], slot: this.slots[i] })).sort((x, y) => y.score - x.score || x.slot - y.slot);
  }
}
