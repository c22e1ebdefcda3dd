// `npm run bench -- quality`: retrieval quality of a knowledge base's search on a labelled corpus
// (bench/data/quality/: a fictional help centre, English and Chinese, with questions and the
// documents that answer them). One knowledge base on fresh local state gets the whole corpus; every
// question then goes through POST /knowledge-bases/{id}/search/ once per method:
//   keyword        searchMethod "keyword"
//   vector         searchMethod "vector"
//   hybrid+rrf     searchMethod "hybrid", enableRrf true, enableRerank false
//   hybrid+rerank  searchMethod "hybrid", enableRrf true, enableRerank true
// Scoring is at the document level: each result maps to its file, the first occurrence of a file
// counts, relevance is binary. Figures: recall@5 and nDCG@10, overall and by language, plus the
// mean latency of a search. Then the built-in model's answers on the same set (bench/answers.mjs:
// replies holding the key sentence, echoes of the question). Options: --verbose (each question's
// misses), --port N, --files-per-upload N (default 20, the API's limit), --dump FILE (each
// question's ranking per method, as JSON), --no-answers (retrieval only).
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startServer, LOCAL_KB_MODELS } from "./lib.mjs";
import { measureAnswers } from "./answers.mjs";

const DATA = path.join(path.dirname(fileURLToPath(import.meta.url)), "data", "quality");
const RETRIEVED = 20;
const INGEST_TIMEOUT_MS = Number(process.env.BENCH_INGEST_TIMEOUT_S ?? 600) * 1000;

export const METHODS = [
  { name: "keyword", searchMethod: "keyword", settings: { enableRrf: true, enableRerank: false } },
  { name: "vector", searchMethod: "vector", settings: { enableRrf: true, enableRerank: false } },
  { name: "hybrid+rrf", searchMethod: "hybrid", settings: { enableRrf: true, enableRerank: false } },
  { name: "hybrid+rerank", searchMethod: "hybrid", settings: { enableRrf: true, enableRerank: true } },
];

// ---------------------------------------------------------------------------------------------
// Metrics (document level, binary relevance)

/** Filenames of the results in rank order, each file once (its best-ranked chunk); FAQs skipped. */
export function rankedDocuments(results) {
  const seen = new Set();
  const ranked = [];
  for (const r of results) {
    const name = r.knowledgeBaseFile?.filename;
    if (!name || seen.has(name)) continue;
    seen.add(name);
    ranked.push(name);
  }
  return ranked;
}

/**
 * Each of `texts` searched in knowledge base `kbId` by `method` (one of METHODS; its settings are set on the knowledge
 * base first, and the first three texts searched once before, to warm up), `retrieved` chunks a search: the ranked
 * documents of each (rankedDocuments) and each search's time in ms.
 */
export async function searchEach(api, kbId, method, texts, retrieved) {
  await api(`/knowledge-bases/${kbId}/`, { method: "PATCH", body: method.settings });
  // The route pages by the query string's pageSize; the body's copy is what the written contract names.
  const search = (query) =>
    api(`/knowledge-bases/${kbId}/search/?pageSize=${retrieved}`, {
      body: { query, searchMethod: method.searchMethod, pageSize: retrieved },
    });
  for (const text of texts.slice(0, 3)) await search(text); // warm-up
  const rankings = [];
  const latencies = [];
  for (const text of texts) {
    const t0 = performance.now();
    const page = await search(text);
    latencies.push(performance.now() - t0);
    rankings.push(rankedDocuments(page.results ?? []));
  }
  return { rankings, latencies };
}

/** Share of the relevant documents found among the first k. */
export function recallAt(ranked, relevant, k) {
  const rel = new Set(relevant);
  if (rel.size === 0) return 0;
  return ranked.slice(0, k).filter((d) => rel.has(d)).length / rel.size;
}

/** Normalised discounted cumulative gain of the first k, gain 1 for a relevant document. */
export function ndcgAt(ranked, relevant, k) {
  const rel = new Set(relevant);
  if (rel.size === 0) return 0;
  let dcg = 0;
  ranked.slice(0, k).forEach((d, i) => {
    if (rel.has(d)) dcg += 1 / Math.log2(i + 2);
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(rel.size, k); i++) ideal += 1 / Math.log2(i + 2);
  return dcg / ideal;
}

const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);

// ---------------------------------------------------------------------------------------------
// Data

export function loadCorpus() {
  const dir = path.join(DATA, "corpus");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".md"))
    .sort()
    .map((filename) => ({ filename, text: readFileSync(path.join(dir, filename), "utf8") }));
}

export function loadQuestions(corpus = loadCorpus()) {
  const questions = JSON.parse(readFileSync(path.join(DATA, "questions.json"), "utf8"));
  const names = new Set(corpus.map((d) => d.filename));
  const ids = new Set();
  for (const q of questions) {
    if (ids.has(q.id)) throw new Error(`questions.json: duplicate id ${q.id}`);
    ids.add(q.id);
    if (!["en", "zh"].includes(q.lang) || !q.question || !q.relevant?.length)
      throw new Error(`questions.json: malformed ${JSON.stringify(q)}`);
    for (const f of q.relevant)
      if (!names.has(f)) throw new Error(`questions.json: ${q.id} names unknown document ${f}`);
  }
  return questions;
}

// ---------------------------------------------------------------------------------------------

function parseArgs(argv) {
  const args = { verbose: false, port: 8791, filesPerUpload: 20, dump: null, noAnswers: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--verbose") args.verbose = true;
    else if (argv[i] === "--port") args.port = Number(argv[++i]);
    else if (argv[i] === "--files-per-upload") args.filesPerUpload = Number(argv[++i]);
    else if (argv[i] === "--dump") args.dump = argv[++i];
    else if (argv[i] === "--no-answers") args.noAnswers = true;
    else
      throw new Error(
        `unknown argument ${argv[i]} (expected --verbose, --port N, --files-per-upload N, --dump FILE, --no-answers)`,
      );
  }
  return args;
}

export default async function (argv = []) {
  const args = parseArgs(argv);
  const corpus = loadCorpus();
  const questions = loadQuestions(corpus);
  // BENCH_VARS='{"RETRIEVAL_FEEDBACK_PASSAGES":"0"}' runs the set under other settings of the service.
  const server = await startServer({ port: args.port, vars: JSON.parse(process.env.BENCH_VARS ?? "{}") });
  const api = server.api;

  try {
    const kb = await api("/knowledge-bases/", {
      body: {
        name: "Bench quality",
        ...LOCAL_KB_MODELS,
        numberOfRetrievedChunks: RETRIEVED,
        similarityCutoff: 0,
        enableRrf: true,
        enableRerank: false,
      },
    });

    // Upload in a few multipart requests, then wait until every file is ingested.
    const started = performance.now();
    const uploaded = [];
    for (let i = 0; i < corpus.length; i += args.filesPerUpload) {
      const form = new FormData();
      for (const doc of corpus.slice(i, i + args.filesPerUpload))
        form.append("file", new Blob([doc.text], { type: "text/markdown" }), doc.filename);
      const records = await api(`/knowledge-bases/${kb.id}/files/`, { form });
      if (!Array.isArray(records))
        throw new Error(`upload answered ${JSON.stringify(records).slice(0, 500)} (expected an array of file records)`);
      uploaded.push(...records);
    }
    if (uploaded.length !== corpus.length)
      throw new Error(`uploaded ${corpus.length} files, got ${uploaded.length} records`);
    const files = await waitForIngestion(api, kb.id, uploaded.length, INGEST_TIMEOUT_MS);
    const ingestSeconds = (performance.now() - started) / 1000;
    const chunks = files.reduce((a, f) => a + (f.chunksCount ?? 0), 0);
    const en = questions.filter((q) => q.lang === "en").length;
    console.log(
      `corpus: ${corpus.length} documents (${corpus.filter((d) => d.filename.startsWith("en-")).length} en, ` +
        `${corpus.filter((d) => d.filename.startsWith("zh-")).length} zh), ${chunks} chunks, ingested in ` +
        `${ingestSeconds.toFixed(1)} s`,
    );
    console.log(
      `questions: ${questions.length} (${en} en, ${questions.length - en} zh); document-level scoring, binary ` +
        `relevance, ${RETRIEVED} chunks retrieved per search\n`,
    );

    const rows = [];
    const dumped = {};
    const texts = questions.map((q) => q.question);
    for (const method of METHODS) {
      const { rankings, latencies } = await searchEach(api, kb.id, method, texts, RETRIEVED);
      const perQuestion = questions.map((q, i) => ({
        q,
        ranked: rankings[i],
        recall5: recallAt(rankings[i], q.relevant, 5),
        ndcg10: ndcgAt(rankings[i], q.relevant, 10),
      }));
      const score = (lang) => {
        const sel = perQuestion.filter((r) => !lang || r.q.lang === lang);
        return { recall5: mean(sel.map((r) => r.recall5)), ndcg10: mean(sel.map((r) => r.ndcg10)) };
      };
      dumped[method.name] = perQuestion.map((r) => ({
        id: r.q.id,
        lang: r.q.lang,
        relevant: r.q.relevant,
        ranked: r.ranked.slice(0, 10),
        ndcg10: r.ndcg10,
      }));
      rows.push({
        name: method.name,
        all: score(),
        en: score("en"),
        zh: score("zh"),
        latency: mean(latencies),
        empty: perQuestion.filter((r) => r.ranked.length === 0).length,
      });
      if (args.verbose) {
        console.log(`-- ${method.name}: questions with a relevant document missing from the top 5`);
        for (const r of perQuestion.filter((r) => r.recall5 < 1))
          console.log(
            `   ${r.q.id} [${r.q.lang}] ${r.q.question.slice(0, 70)} | want ${r.q.relevant.join(",")} | got ` +
              `${r.ranked.slice(0, 5).join(",")}`,
          );
      }
    }

    if (args.dump) writeFileSync(args.dump, JSON.stringify(dumped, null, 1));
    printTable(rows);
    for (const r of rows)
      if (r.empty) console.log(`note: ${r.name} returned no document for ${r.empty} of ${questions.length} questions`);
    const hybrids = rows.filter((r) => r.name.startsWith("hybrid"));
    const best = hybrids.reduce((a, b) =>
      b.all.ndcg10 > a.all.ndcg10 || (b.all.ndcg10 === a.all.ndcg10 && b.all.recall5 > a.all.recall5) ? b : a,
    );
    const verdicts = rows
      .filter((r) => !r.name.startsWith("hybrid"))
      .map((r) => {
        const beats = best.all.recall5 > r.all.recall5 && best.all.ndcg10 > r.all.ndcg10;
        return (
          `${beats ? "beats" : "does NOT beat"} ${r.name} (recall@5 ${fmt(best.all.recall5)} vs ` +
          `${fmt(r.all.recall5)}, nDCG@10 ${fmt(best.all.ndcg10)} vs ${fmt(r.all.ndcg10)})`
        );
      });
    console.log(`\nhybrid (best: ${best.name}) ${verdicts.join("; ")} on both metrics overall`);
    if (!args.noAnswers)
      await measureAnswers(api, { corpus, questions, docsKnowledgeBaseId: kb.id, verbose: args.verbose });
  } finally {
    await server.stop();
  }
}

/**
 * Polls the file list until all `expected` files are done; throws on a failed file, on the timeout,
 * or when nothing changes for `stallMs` (a lost queue batch, e.g. when `wrangler dev` reloads
 * because a source file changed, leaves files "processing" for good).
 */
export async function waitForIngestion(
  api,
  kbId,
  expected,
  timeoutMs,
  { onProgress, stallMs = Number(process.env.BENCH_STALL_TIMEOUT_S ?? 300) * 1000 } = {},
) {
  const deadline = Date.now() + timeoutMs;
  let last = "";
  let changedAt = Date.now();
  for (;;) {
    const files = [];
    for (let page = 1; ; page++) {
      const res = await api(`/knowledge-bases/${kbId}/files/?page=${page}&pageSize=100`, { method: "GET" });
      files.push(...res.results);
      if (!res.next || res.results.length === 0) break;
    }
    const failed = files.filter((f) => f.status === "failed");
    if (failed.length)
      throw new Error(`${failed.length} file(s) failed ingestion, e.g. ${JSON.stringify(failed[0]).slice(0, 1000)}`);
    const counts = {};
    for (const f of files) counts[f.status] = (counts[f.status] ?? 0) + 1;
    const summary = Object.entries(counts)
      .map(([s, n]) => `${s} ${n}`)
      .join(", ");
    if (summary !== last) {
      onProgress?.(summary, files);
      changedAt = Date.now();
    }
    last = summary;
    if (files.length >= expected && files.every((f) => f.status === "done")) return files;
    if (Date.now() > deadline)
      throw new Error(
        `ingestion timed out after ${timeoutMs / 1000} s: ${files.length}/${expected} files listed, ${summary}`,
      );
    if (Date.now() - changedAt > stallMs)
      throw new Error(
        `ingestion stalled: no file changed status for ${stallMs / 1000} s: ${files.length}/${expected} files ` +
          `listed, ${summary}`,
      );
    await new Promise((r) => setTimeout(r, 500));
  }
}

const fmt = (x) => x.toFixed(3);

function printTable(rows) {
  const head = ["method", "recall@5", "  (en)", "  (zh)", "nDCG@10", "  (en)", "  (zh)", "mean ms"];
  const widths = [14, 9, 7, 7, 9, 7, 7, 8];
  const line = (cells) =>
    cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join(" ");
  console.log(line(head));
  console.log(widths.map((w) => "-".repeat(w)).join(" "));
  for (const r of rows)
    console.log(
      line([
        r.name,
        fmt(r.all.recall5),
        fmt(r.en.recall5),
        fmt(r.zh.recall5),
        fmt(r.all.ndcg10),
        fmt(r.en.ndcg10),
        fmt(r.zh.ndcg10),
        r.latency.toFixed(1),
      ]),
    );
}
