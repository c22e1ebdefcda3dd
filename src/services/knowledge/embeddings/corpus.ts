import { contentTerms } from "../retrieval/terms";
import { embedText, LOCAL_EMBEDDING_DIMENSIONS } from "./local";
import { truncatedSvd } from "./svd";

/**
 * The built-in embedding, trained per knowledge base on its own text (latent semantic analysis):
 * the truncated SVD of the tf-idf matrix of the base's chunks maps each term to a point in a
 * 128-dimensional "topic" space, where terms that occur in the same passages lie close, so a question
 * finds passages that say the same thing in other words. A text's vector is the tf-idf weighted sum of
 * its terms' points (LSA's "folding in"), beside the word-hashing features of the untrained model at
 * 128 dimensions (variants, typos, words the model has not seen): cosine = 0.8 x topic + 0.2 x hashing.
 * Without a model (a new or small base) the vector is the 256-dimension hashing embedding alone.
 */
export const TOPIC_DIMENSIONS = 128;
const HASH_DIMENSIONS = LOCAL_EMBEDDING_DIMENSIONS - TOPIC_DIMENSIONS;
/**
 * The topic part's share of the cosine. Measured on CISI (docs/decisions.md): vector search nDCG@10
 * 0.360 with the topic part alone, 0.371 at 0.8, 0.361 at 0.6.
 */
const TOPIC_SHARE = 0.8;
/** Terms the model keeps (by document frequency): 8,192 x 128 int8 is 1 MiB, under a Durable Object row's 2 MB. */
const VOCABULARY_LIMIT = 8192;
/** Chunks (a deterministic spread of the base) the SVD is trained on: ~1 s of CPU. */
export const TRAINING_SAMPLE = 4000;
/**
 * Below this many chunks there is too little text to learn from; the hashing embedding serves alone.
 * Measured: a model trained on our help-centre set (180 chunks, English and Chinese) lowered its vector
 * nDCG@10 from 0.702 to 0.661 (Chinese from ~0.6 to 0.398), while on CISI (2,259 chunks) it lifted it
 * from 0.205 to 0.369.
 */
export const MIN_TRAINING_CHUNKS = 1000;

export interface CorpusModel {
  terms: string[];
  /** Document frequency of each term in the training sample. */
  df: Int32Array;
  /** Texts in the training sample. */
  documents: number;
  /** Topic dimensions learnt (at most TOPIC_DIMENSIONS; fewer for a small vocabulary). */
  k: number;
  /** Each term's topic vector, int8, terms x k. */
  vectors: Int8Array;
  /** Each term's scale: vectors[t][c] * scales[t] is the learnt value. */
  scales: Float32Array;
}

const counts = (terms: string[]) => {
  const out = new Map<string, number>();
  for (const t of terms) out.set(t, (out.get(t) ?? 0) + 1);
  return out;
};

/** The model of a sample of a knowledge base's texts; null when they are too few or too uniform to learn from. */
export function trainCorpusModel(texts: string[]): CorpusModel | null {
  if (texts.length < 2) return null;
  const bags = texts.map((t) => counts(contentTerms(t)));
  const df = new Map<string, number>();
  for (const bag of bags) for (const t of bag.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  // Terms of at least two texts (one text's term relates nothing), the most widespread first, ties by name.
  const terms = [...df]
    .filter(([, n]) => n >= 2 && n < texts.length)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, VOCABULARY_LIMIT)
    .map(([t]) => t);
  if (terms.length < 2) return null;
  const index = new Map(terms.map((t, i) => [t, i]));
  const idf = terms.map((t) => Math.log(texts.length / df.get(t)!));
  const columns = bags.map((bag) => {
    const entries = [...bag]
      .filter(([t]) => index.has(t))
      .map(([t, tf]) => [index.get(t)!, (1 + Math.log(tf)) * idf[index.get(t)!]] as const);
    const norm = Math.hypot(...entries.map((e) => e[1])) || 1;
    return { index: Int32Array.from(entries, (e) => e[0]), value: Float64Array.from(entries, (e) => e[1] / norm) };
  });
  const svd = truncatedSvd({ rows: terms.length, columns }, TOPIC_DIMENSIONS);
  if (svd.k === 0) return null;
  const vectors = new Int8Array(terms.length * svd.k);
  const scales = new Float32Array(terms.length);
  for (let t = 0; t < terms.length; t++) {
    let max = 0;
    for (let c = 0; c < svd.k; c++) max = Math.max(max, Math.abs(svd.u[t * svd.k + c]));
    scales[t] = max / 127;
    for (let c = 0; c < svd.k; c++)
      vectors[t * svd.k + c] = max > 0 ? Math.round((svd.u[t * svd.k + c] / max) * 127) : 0;
  }
  return { terms, df: Int32Array.from(terms, (t) => df.get(t)!), documents: texts.length, k: svd.k, vectors, scales };
}

const indexes = new WeakMap<CorpusModel, Map<string, number>>();
const indexOf = (model: CorpusModel) => {
  let index = indexes.get(model);
  if (!index) indexes.set(model, (index = new Map(model.terms.map((t, i) => [t, i]))));
  return index;
};

/** The unit vector (LOCAL_EMBEDDING_DIMENSIONS long) of a text under a knowledge base's model, or the hashing embedding
 * without one. */
export function embedWithModel(model: CorpusModel | null, text: string): number[] {
  if (!model) return embedText(text);
  const index = indexOf(model);
  const topic = new Float64Array(TOPIC_DIMENSIONS);
  for (const [term, tf] of counts(contentTerms(text))) {
    const t = index.get(term);
    if (t === undefined) continue;
    const w = (1 + Math.log(tf)) * Math.log(model.documents / model.df[t]) * model.scales[t];
    for (let c = 0; c < model.k; c++) topic[c] += w * model.vectors[t * model.k + c];
  }
  const topicNorm = Math.hypot(...topic);
  const hashed = embedText(text, HASH_DIMENSIONS);
  // A text with none of the model's terms is its hashing features alone (unit length still).
  const topicWeight = topicNorm > 0 ? Math.sqrt(TOPIC_SHARE) / topicNorm : 0;
  const hashWeight = topicNorm > 0 ? Math.sqrt(1 - TOPIC_SHARE) : 1;
  return [...Array.from(topic, (x) => x * topicWeight), ...hashed.map((x) => x * hashWeight)];
}
