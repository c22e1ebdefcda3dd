import type { EmbeddingModel } from "./types";
import { CJK_CLASS, CJK_STOPWORDS } from "../retrieval/terms";

/**
 * The built-in local embedding model: deterministic, offline, no weights. Features are hashed into
 * 256 signed dimensions. Keyword search (BM25 over exact terms) already finds exact words, so this
 * model is built for what it misses: stemmed words match morphological variants ("refunds" ~
 * "refund", "charging" ~ "charge") and character 3-grams match partial words and typos. Chinese and
 * Japanese, written without spaces, and Korean, whose words carry their particles, get each character
 * and each pair of neighbouring characters, as the keyword index does.
 */
/**
 * A power of two (the hash's low bits pick the dimension). Measured with `npm run bench`: 512
 * dimensions lift vector search's nDCG@10 on the quality set from 0.688 to 0.806 (fewer
 * collisions), but raised hybrid p50 at 100,000 chunks from ~45 to ~55 ms in the local runtime,
 * over the 50 ms target; 256 keeps the target and hybrid with rerank still beats each single method.
 */
export const LOCAL_EMBEDDING_DIMENSIONS = 256;

export const localEmbeddingModel: EmbeddingModel = {
  dimensions: LOCAL_EMBEDDING_DIMENSIONS,
  async embed(texts: string[]): Promise<number[][]> {
    return texts.map((t) => embedText(t));
  },
};

/**
 * The keyword index's CJK (kana, ideographs, Hangul). Hangul was once taken as words, being spaced:
 * 환불은 (refund + particle) then never met the question's 환불, so the reranker scored 0 a passage the
 * index had found and the default cutoff dropped it. Korean text embedded before keeps its word
 * features until reparsed.
 */
const CJK = new RegExp(`[${CJK_CLASS}]`, "u");
// A Latin word stops where CJK text starts ("API密钥" is "api" and "密钥").
const TOKEN = new RegExp(`[${CJK_CLASS}]+|(?:(?![${CJK_CLASS}])[\\p{L}\\p{N}])+(?:['’][\\p{L}]+)*`, "gu");

// Function words carry little meaning but would dominate short texts; they keep a tenth of a weight
// rather than nothing, so a query made only of them still finds something.
const STOPWORDS = new Set(
  (
    "a an and are as at be been but by can could did do does for from had has have how i if in into is it its " +
    "me my no not " +
    "of on or our she he so than that the their them then there these they this to too was we were what when " +
    "where which " +
    "who why will with would you your"
  ).split(" "),
);
const STOPWORD_WEIGHT = 0.1;

/**
 * Words get full weight, sub-word features (3-grams, single CJK characters) a lower one. 0.8 gave
 * the best ranking on a small set of variant, typo and partial-word queries (0.6: 20 of 24 right,
 * 0.8: 22, 1.0: 23); above 0.8 the gain was one query while unrelated words sharing 3-grams grew closer.
 */
const SUBWORD_WEIGHT = 0.8;

export interface Token {
  /** The lower-cased word, or one CJK run. */
  text: string;
  cjk: boolean;
}

/** Lower-cased tokens: runs of letters/digits, and runs of CJK characters kept whole. */
export function tokenize(text: string): Token[] {
  return (text.toLowerCase().normalize("NFKC").match(TOKEN) ?? []).map((t) => ({
    text: t.replace(/['’]s$/u, ""),
    cjk: CJK.test(t),
  }));
}

export const isStopword = (word: string) => STOPWORDS.has(word) || CJK_STOPWORDS.has(word);

/**
 * Light English normalisation: plural, -ing and -ed endings, then a final "e", so that "refunds",
 * "refunded" and "refund" meet, as do "charge", "charges", "charged" and "charging". The stems are
 * never shown; they only need to agree with each other.
 */
export function stem(word: string): string {
  if (word.length <= 3) return word;
  let known = stems.get(word);
  if (known === undefined) {
    // Words repeat across passages: remembered per isolate, forgotten all at once when too many.
    if (stems.size >= STEM_CACHE_SIZE) stems.clear();
    stems.set(word, (known = stemWord(word)));
  }
  return known;
}

const stems = new Map<string, string>();
const STEM_CACHE_SIZE = 50_000;

function stemWord(word: string): string {
  if (!/^[a-z]+$/.test(word)) return word;
  let w = word;
  if (w.endsWith("ies") && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith("ied") && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (w.endsWith("s") && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  else if (w.endsWith("ing") && w.length > 5 && /[aeiouy]/.test(w.slice(0, -3))) w = undouble(w.slice(0, -3));
  else if (w.endsWith("ed") && !w.endsWith("eed") && w.length > 4 && /[aeiouy]/.test(w.slice(0, -2)))
    w = undouble(w.slice(0, -2));
  if (w.length > 3 && w.endsWith("e")) w = w.slice(0, -1);
  return w;
}

/** "shipp" -> "ship": -ing and -ed double a final consonant; l, s and z often double in the stem itself. */
const undouble = (w: string) => (/([^aeioulsz])\1$/.test(w) ? w.slice(0, -1) : w);

/** Features of a text by group: whole-word features and sub-word ones, with their weights. */
function features(text: string): { words: Map<string, number>; subwords: Map<string, number> } {
  const words = new Map<string, number>();
  const subwords = new Map<string, number>();
  const add = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
  for (const token of tokenize(text)) {
    if (token.cjk) {
      const chars = [...token.text];
      for (let i = 0; i < chars.length; i++) {
        add(subwords, `c:${chars[i]}`);
        if (i + 1 < chars.length) add(words, `b:${chars[i]}${chars[i + 1]}`);
      }
      continue;
    }
    add(words, `w:${stem(token.text)}`);
    // Boundary markers make "^re" (a word start) differ from "re" inside "more".
    const marked = `^${token.text}$`;
    if (marked.length > 3) for (let i = 0; i + 3 <= marked.length; i++) add(subwords, `g:${marked.slice(i, i + 3)}`);
  }
  return { words, subwords };
}

/** Stopword features (and CJK pairs made only of stopword characters) keep a tenth of a weight. */
function weightOf(key: string): number {
  const body = key.slice(2);
  if (key.startsWith("w:")) return isStopword(body) ? STOPWORD_WEIGHT : 1;
  if (key.startsWith("c:")) return CJK_STOPWORDS.has(body) ? STOPWORD_WEIGHT : 1;
  if (key.startsWith("b:")) return [...body].every((c) => CJK_STOPWORDS.has(c)) ? STOPWORD_WEIGHT : 1;
  return 1;
}

/** The unit vector of one text. */
export function embedText(text: string, dimensions = LOCAL_EMBEDDING_DIMENSIONS): number[] {
  const { words, subwords } = features(text);
  const out = new Float64Array(dimensions);
  // Each group is normalised on its own first, so that long words (many 3-grams) do not outweigh
  // the words themselves; SUBWORD_WEIGHT then sets their share.
  addGroup(out, words, 1);
  addGroup(out, subwords, SUBWORD_WEIGHT);
  if (words.size === 0 && subwords.size === 0) addGroup(out, new Map([["empty", 1]]), 1);
  return normalize(out);
}

/** `out.length` is a power of two: the hash's low bits pick the dimension. */
function addGroup(out: Float64Array, group: Map<string, number>, groupWeight: number) {
  const slots = new Float64Array(out.length);
  for (const [key, tf] of group) {
    const h = fmix32(fnv1a(key));
    // Low bits choose the dimension, the top bit the sign, so collisions cancel out on average.
    const sign = h & 0x80000000 ? -1 : 1;
    slots[h & (out.length - 1)] += sign * weightOf(key) * (1 + Math.log(tf));
  }
  const norm = Math.hypot(...slots);
  if (norm > 0) for (let i = 0; i < slots.length; i++) out[i] += (slots[i] / norm) * groupWeight;
}

function normalize(v: Float64Array): number[] {
  const norm = Math.hypot(...v);
  return Array.from(v, (x) => (norm > 0 ? x / norm : 0));
}

/** FNV-1a over UTF-16 code units. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** MurmurHash3's finaliser: FNV-1a's low bits are weak on short keys; this spreads every input bit. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
