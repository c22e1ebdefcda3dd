/**
 * Keyword terms, shared by the FTS5 index (written by the service, migration 0006) and its queries:
 * lower-cased words, and for Chinese, Japanese and Korean each character and each pair of neighbouring
 * characters: Chinese and Japanese do not separate words, and a Korean word carries its particles
 * (환불은 is 환불 + 은). A two-character word such as 退货 or 환불 is then one indexed term, and a longer
 * phrase matches through its pairs.
 */
import { porterStem } from "./porter";

/**
 * The characters taken as CJK (kana, CJK ideographs, Hangul syllables), after NFKC: one definition
 * for the index and the local embedding and reranker (embeddings/local.ts), which must agree, or a
 * passage the index finds scores 0 with the reranker and the default cutoff drops it. Hangul Jamo are
 * outside it (NFKC folds compatibility and half-width Jamo into them): both take them as letters of a word.
 * Changing it changes the terms of content already indexed.
 */
export const CJK_CLASS = "\\u3040-\\u30ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\uf900-\\ufaff\\uac00-\\ud7af";
const CJK_RUN = new RegExp(`[${CJK_CLASS}]+`, "gu");
/** A run of letters and digits that are not CJK: "API密钥" is the word "api" and the run "密钥". */
const LATIN_WORD = `(?:(?![${CJK_CLASS}])[\\p{L}\\p{N}])+`;
const LATIN_WORDS = new RegExp(LATIN_WORD, "gu");
const WORD = new RegExp(`[${CJK_CLASS}]+|${LATIN_WORD}`, "gu");
const IS_CJK = new RegExp(`^[${CJK_CLASS}]`, "u");

/**
 * Chinese function characters and question words (怎么, 什么, 请问: nearly every question has them).
 * One list for keyword queries, the local embedding and the local reranker.
 */
export const CJK_STOPWORDS = new Set(
  "的了是在和有我你他她它们这那就也都不与及或吗呢吧啊个之其把被对从到为以等而怎么什请问".split(""),
);

/** English words that carry no meaning for search. */
const STOPWORDS = new Set(
  (
    "a an and are as at be but by can could did do does for from had has have how i if in into is it its me " +
    "my no not of on or our " +
    "should so that the their them then there these they this to was we were what when where which who why " +
    "will with would you your"
  ).split(" "),
);

/** Whether a term says nothing for search: an English stopword, or CJK characters (one or a pair) that all are. */
const isStopTerm = (term: string) =>
  STOPWORDS.has(term) || (term.length <= 2 && [...term].every((c) => CJK_STOPWORDS.has(c)));

/** Each term of the text, in order, duplicates kept (for term frequencies). */
export function termsOf(text: string): string[] {
  const out: string[] = [];
  for (const token of text.toLowerCase().normalize("NFKC").match(WORD) ?? []) {
    if (!IS_CJK.test(token)) {
      out.push(token);
      continue;
    }
    const chars = [...token];
    for (let i = 0; i < chars.length; i++) {
      out.push(chars[i]);
      if (i + 1 < chars.length) out.push(chars[i] + chars[i + 1]);
    }
  }
  return out;
}

/** A conversation's search term is at most this many characters: a longer word is kept, and searched, by its start. */
const MAX_SEARCH_TERM = 64;
const clip = (term: string) =>
  [...term].length > MAX_SEARCH_TERM ? [...term].slice(0, MAX_SEARCH_TERM).join("") : term;
/**
 * Whether a term is worth a row of conversation search: not a stopword, not one character (a
 * letter, a lone CJK one).
 */
const isSearchTerm = (term: string) => !isStopTerm(term) && [...term].length > 1;

/**
 * The distinct terms a conversation is searched by (services/conversation/search.ts), as `termsOf`
 * makes them, unstemmed (a search word matches the start of a term, which stems would cut short),
 * without stopwords and single characters: for CJK the pairs of neighbouring characters.
 */
export function searchTerms(text: string): string[] {
  const out = new Set<string>();
  for (const term of termsOf(text)) if (isSearchTerm(term)) out.add(clip(term));
  return [...out];
}

/**
 * How one search word meets `searchTerms`: its Latin words as the start of a term (`prefixes`), its
 * CJK runs by each of their pairs (`pairs`, the term itself). Stopwords and single characters give
 * nothing (`stopwords`: whether the word was only stopwords).
 */
export function searchWordTerms(word: string): { prefixes: string[]; pairs: string[]; stopwords: boolean } {
  const prefixes = new Set<string>();
  const pairs = new Set<string>();
  let stopwords = false;
  for (const token of word.toLowerCase().normalize("NFKC").match(WORD) ?? []) {
    const chars = [...token];
    const terms = IS_CJK.test(token) ? chars.slice(1).map((c, i) => chars[i] + c) : [token];
    for (const term of terms) {
      if (isStopTerm(term)) stopwords = true;
      else if (isSearchTerm(term)) (IS_CJK.test(token) ? pairs : prefixes).add(clip(term));
    }
  }
  return { prefixes: [...prefixes], pairs: [...pairs], stopwords: stopwords && !prefixes.size && !pairs.size };
}

/**
 * The prefix that makes a term one knowledge base's own (`k` + the last 12 hex digits of its id, the
 * random part of a uuid v7). Two bases sharing a prefix would only share posting lists: search
 * still checks each row's base, so nothing crosses over.
 */
const prefixOf = (knowledgeBaseId: string) => `k${knowledgeBaseId.replace(/-/g, "").slice(-12).toLowerCase()}`;

/**
 * The text as the FTS5 column stores it: its terms, English words Porter-stemmed ("retrieval" and
 * "retrieving" are both "retriev"), prefixed with the knowledge base, separated by spaces.
 */
export const indexedTerms = (text: string, knowledgeBaseId: string) => {
  const prefix = prefixOf(knowledgeBaseId);
  return termsOf(text)
    .map((t) => prefix + porterStem(t))
    .join(" ");
};

/** Distinct meaningful terms of a query (stopwords dropped; the index keeps them). */
export function queryTerms(query: string): string[] {
  return [...new Set(termsOf(query).filter((t) => !isStopTerm(t)))].slice(0, 64);
}

/** The meaningful terms of a text in order, duplicates kept, English words stemmed: what the corpus-trained embedding
 * counts. */
export const contentTerms = (text: string): string[] =>
  termsOf(text)
    .filter((t) => !isStopTerm(t))
    .map(porterStem);

/** A stemmed query term said this often counts at most this many times (a long question repeats its subject). */
const MAX_QUERY_TERM_FREQUENCY = 3;

/**
 * The query's meaningful terms, stemmed, each weighted by how often the question says it (at most 3:
 * BM25 with query term frequency, as long questions name their subject more than once), with the
 * unstemmed words where they differ. At most 64 terms.
 */
export function weightedQueryTerms(query: string): { stem: string; weight: number; words: Set<string> }[] {
  const counts = new Map<string, { weight: number; words: Set<string> }>();
  for (const word of termsOf(query)) {
    if (isStopTerm(word)) continue;
    const stem = porterStem(word);
    const entry = counts.get(stem) ?? { weight: 0, words: new Set<string>() };
    entry.weight = Math.min(MAX_QUERY_TERM_FREQUENCY, entry.weight + 1);
    entry.words.add(word);
    counts.set(stem, entry);
  }
  return [...counts].slice(0, 64).map(([stem, e]) => ({ stem, ...e }));
}

/**
 * An FTS5 MATCH expression: rows of the knowledge base holding any of the query's terms; null when
 * it has none. FTS5's bm25() sums over the expression's phrases, so a term the query says twice is
 * written twice and weighs double. Each term is the word's stem; where the stem differs from the
 * word, the word follows too, for bases indexed before terms were stemmed (in a stemmed index it
 * matches nothing).
 */
export function matchExpression(query: string, knowledgeBaseId: string): string | null {
  const prefix = prefixOf(knowledgeBaseId);
  const phrase = (t: string) => `"${prefix}${t.replace(/"/g, '""')}"`;
  const phrases: string[] = [];
  for (const { stem, weight, words } of weightedQueryTerms(query)) {
    for (let i = 0; i < weight; i++) phrases.push(phrase(stem));
    for (const word of words) if (word !== stem) phrases.push(phrase(word));
  }
  return phrases.length ? phrases.join(" OR ") : null;
}

/**
 * A text as the knowledge base's own keyword index takes it (src/services/knowledge/retrieval/keyword-index.ts):
 * its meaningful stemmed terms with their counts, and its length in terms, stopwords included, as
 * FTS5 counts a row's length.
 */
export function keywordTerms(text: string): { length: number; terms: [term: string, count: number][] } {
  const all = termsOf(text);
  const counts = new Map<string, number>();
  for (const t of all) {
    if (isStopTerm(t)) continue;
    const stem = porterStem(t);
    counts.set(stem, (counts.get(stem) ?? 0) + 1);
  }
  return { length: all.length, terms: [...counts] };
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };
const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (c) => ESCAPES[c]);

interface Highlighter {
  query: string;
  words: Set<string>;
  stems: Set<string>;
  cjk: string[];
  /** Words of the texts seen so far: whether each is marked. */
  seen: Map<string, boolean>;
}

/** The last query's terms: a search highlights every result with the same query. */
let lastHighlighter: Highlighter | null = null;

function highlighterOf(query: string): Highlighter {
  if (lastHighlighter?.query === query) return lastHighlighter;
  const terms = queryTerms(query);
  const words = new Set(terms.filter((t) => !IS_CJK.test(t)));
  // Other forms of a query word are marked too, as the stemmed index found them.
  const stems = new Set([...words].map(porterStem));
  const cjk = terms.filter(
    (t) => IS_CJK.test(t) && ([...t].length > 1 || terms.length === 1 || !terms.some((o) => o !== t && o.includes(t))),
  );
  return (lastHighlighter = { query, words, stems, cjk, seen: new Map() });
}

/**
 * The text, HTML-escaped, with the query's terms wrapped in `<mark>`: whole words for Latin script,
 * and for CJK every run of characters covered by a query pair (or a single query character).
 * Positions are UTF-16 offsets: matches are whole code points, and CJK characters are one unit each.
 */
export function highlight(text: string, query: string): string {
  const { words, stems, cjk, seen } = highlighterOf(query);
  const marked = new Uint8Array(text.length);
  let any = false;
  if (words.size) {
    for (const m of text.matchAll(LATIN_WORDS)) {
      const word = m[0].toLowerCase();
      let hit = seen.get(word);
      if (hit === undefined) seen.set(word, (hit = words.has(word) || stems.has(porterStem(word))));
      if (!hit) continue;
      marked.fill(1, m.index, m.index + m[0].length);
      any = true;
    }
  }
  if (cjk.length) {
    for (const run of text.matchAll(CJK_RUN)) {
      for (const t of cjk) {
        for (let at = run[0].indexOf(t); at !== -1; at = run[0].indexOf(t, at + 1)) {
          marked.fill(1, run.index + at, run.index + at + t.length);
          any = true;
        }
      }
    }
  }
  if (!any) return escapeHtml(text);
  let out = "";
  for (let i = 0; i < text.length; ) {
    let j = i;
    while (j < text.length && marked[j] === marked[i]) j++;
    out += marked[i] ? `<mark>${escapeHtml(text.slice(i, j))}</mark>` : escapeHtml(text.slice(i, j));
    i = j;
  }
  return out;
}
