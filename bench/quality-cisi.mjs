// `npm run bench -- quality-cisi`: retrieval quality on a public test collection, CISI (1,460 library
// science abstracts, 76 queries with relevance judgments; ../shared/data/cisi/, see its README).
// Each document becomes a text file (title, blank line, abstract) uploaded through the files API into
// one knowledge base with the built-in models and default settings (numberOfRetrievedChunks 20, so
// that a search returns ten documents or more); every judged query then goes through
// POST /knowledge-bases/{id}/search/ once per method. Beside it, in the same run, SQLite FTS5 BM25
// (porter tokenizer, title + abstract, OR of the query's words, node:sqlite) is the baseline.
// Scoring at the document level (a document's best chunk counts), binary relevance: nDCG@10,
// recall@10, and the p50 latency of a search. Queries longer than the API's 2,000 characters are cut
// at a word, for the baseline as well. Options: --port N, --data DIR, --dump FILE.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { percentile, startServer, LOCAL_KB_MODELS } from "./lib.mjs";
import { ndcgAt, recallAt, searchEach, waitForIngestion } from "./quality.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const RETRIEVED = 20;
const INGEST_TIMEOUT_MS = Number(process.env.BENCH_INGEST_TIMEOUT_S ?? 900) * 1000;

const METHODS = [
  { name: "keyword (bm25)", searchMethod: "keyword", settings: { enableRrf: true, enableRerank: false } },
  { name: "vector", searchMethod: "vector", settings: { enableRrf: true, enableRerank: false } },
  { name: "hybrid rrf", searchMethod: "hybrid", settings: { enableRrf: true, enableRerank: false } },
  { name: "hybrid score mean", searchMethod: "hybrid", settings: { enableRrf: false, enableRerank: false } },
  { name: "hybrid score+rerank", searchMethod: "hybrid", settings: { enableRrf: false, enableRerank: true } },
  { name: "default (rrf+rerank)", searchMethod: "hybrid", settings: { enableRrf: true, enableRerank: true } },
];

/** Records of a CISI file: `.I id`, then fields `.T`, `.A`, `.W`, `.X`, ... each on its own line. */
function records(file) {
  const out = [];
  let current = null;
  let field = null;
  for (const line of readFileSync(file, "utf8").split(/\r?\n/)) {
    const m = line.match(/^\.([A-Z])\s*(.*)$/);
    if (m) {
      if (m[1] === "I") out.push((current = { id: Number(m[2]), T: "", W: "" }));
      field = m[1];
      continue;
    }
    if (current && (field === "T" || field === "W")) current[field] += `${line}\n`;
  }
  return out;
}

/** The search API takes queries of up to 2,000 characters: a longer one is cut at a word (for the baseline too). */
const cutAtWord = (text, max = 2000) => (text.length <= max ? text : text.slice(0, text.lastIndexOf(" ", max)));

export function loadCisi(dir) {
  const clean = (s) => s.replace(/\s+/g, " ").trim();
  const docs = records(path.join(dir, "CISI.ALL")).map((r) => ({ id: r.id, title: clean(r.T), abstract: clean(r.W) }));
  const relevant = new Map();
  for (const line of readFileSync(path.join(dir, "CISI.REL"), "utf8").split(/\r?\n/)) {
    const [q, d] = line.trim().split(/\s+/).map(Number);
    if (!q || !d) continue;
    if (!relevant.has(q)) relevant.set(q, new Set());
    relevant.get(q).add(`cisi-${d}.txt`);
  }
  const queries = records(path.join(dir, "CISI.QRY"))
    .filter((r) => relevant.has(r.id))
    .map((r) => ({ id: r.id, text: cutAtWord(clean(r.W)), relevant: [...relevant.get(r.id)] }));
  return { docs, queries };
}

/** The README's baseline: FTS5 with the porter tokenizer over title and abstract, OR of the query's words, by bm25().
 * */
async function fts5Baseline(docs, queries) {
  const { DatabaseSync } = await import("node:sqlite");
  const db = new DatabaseSync(":memory:");
  db.exec("create virtual table docs using fts5(title, abstract, tokenize='porter')");
  const insert = db.prepare("insert into docs (rowid, title, abstract) values (?, ?, ?)");
  for (const d of docs) insert.run(d.id, d.title, d.abstract);
  const search = db.prepare("select rowid from docs where docs match ? order by bm25(docs) limit 10");
  return queries.map((q) => {
    const words = q.text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
    return words.length ? search.all(words.map((w) => `"${w}"`).join(" OR ")).map((r) => `cisi-${r.rowid}.txt`) : [];
  });
}

function parseArgs(argv) {
  const args = { port: 8831, data: path.resolve(ROOT, "../shared/data/cisi"), dump: null };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--port") args.port = Number(argv[++i]);
    else if (argv[i] === "--data") args.data = path.resolve(argv[++i]);
    else if (argv[i] === "--dump") args.dump = argv[++i];
    else throw new Error(`unknown argument ${argv[i]} (expected --port N, --data DIR, --dump FILE)`);
  }
  return args;
}

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const scoreOf = (rankings, queries) => ({
  ndcg10: mean(queries.map((q, i) => ndcgAt(rankings[i], q.relevant, 10))),
  recall10: mean(queries.map((q, i) => recallAt(rankings[i], q.relevant, 10))),
});

/** Ingests CISI into a fresh server started with `vars` and scores each method; rows in METHODS order. */
async function measure(args, docs, queries, vars, methods, suffix = "") {
  const rows = [];
  const server = await startServer({ port: args.port, vars });
  const api = server.api;
  try {
    const kb = await api("/knowledge-bases/", {
      body: {
        name: "Bench CISI",
        ...LOCAL_KB_MODELS,
        numberOfRetrievedChunks: RETRIEVED,
      },
    });
    const started = performance.now();
    let uploaded = 0;
    for (let i = 0; i < docs.length; i += 20) {
      const form = new FormData();
      for (const d of docs.slice(i, i + 20))
        form.append("file", new Blob([`${d.title}\n\n${d.abstract}\n`], { type: "text/plain" }), `cisi-${d.id}.txt`);
      uploaded += (await api(`/knowledge-bases/${kb.id}/files/`, { form })).length;
    }
    const files = await waitForIngestion(api, kb.id, uploaded, INGEST_TIMEOUT_MS);
    const chunks = files.reduce((a, f) => a + (f.chunksCount ?? 0), 0);
    console.log(
      `CISI${suffix}: ${docs.length} documents, ${chunks} chunks, ingested in ` +
        `${((performance.now() - started) / 1000).toFixed(1)} s; ${queries.length} judged queries; ${RETRIEVED} ` +
        `chunks per search`,
    );

    const dumped = {};
    const texts = queries.map((q) => q.text);
    for (const method of methods) {
      const { rankings, latencies } = await searchEach(api, kb.id, method, texts, RETRIEVED);
      dumped[method.name + suffix] = rankings.map((r, i) => ({ id: queries[i].id, ranked: r.slice(0, 10) }));
      rows.push({ name: method.name + suffix, ...scoreOf(rankings, queries), p50: percentile(latencies, 50) });
    }
    return { rows, dumped };
  } finally {
    await server.stop();
  }
}

export default async function (argv = []) {
  const args = parseArgs(argv);
  const { docs, queries } = loadCisi(args.data);
  const rows = [{ name: "FTS5 bm25 baseline", ...scoreOf(await fts5Baseline(docs, queries), queries), p50: null }];
  const main = await measure(args, docs, queries, {}, METHODS);
  rows.push(...main.rows);
  // The option this bench keeps honest: the vector leg's feedback from the keyword leg, turned off.
  const hybrids = METHODS.filter((m) => m.searchMethod === "hybrid" && m.settings.enableRrf);
  const off = await measure(args, docs, queries, { RETRIEVAL_FEEDBACK_PASSAGES: "0" }, hybrids, " no fb");
  rows.push(...off.rows);
  if (args.dump) writeFileSync(args.dump, JSON.stringify({ ...main.dumped, ...off.dumped }, null, 1));
  console.log("");

  const widths = [28, 9, 10, 9];
  const line = (cells) =>
    cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join(" ");
  console.log(line(["method", "nDCG@10", "recall@10", "p50 ms"]));
  console.log(widths.map((w) => "-".repeat(w)).join(" "));
  for (const r of rows)
    console.log(line([r.name, r.ndcg10.toFixed(3), r.recall10.toFixed(3), r.p50 === null ? "-" : r.p50.toFixed(1)]));
  const at = (name) => rows.find((r) => r.name === name);
  const baseline = at("FTS5 bm25 baseline").ndcg10;
  const best = Math.max(at("keyword (bm25)").ndcg10, at("vector").ndcg10);
  const verdict = (ok) => (ok ? "holds" : "does NOT hold");
  console.log(
    `\ndefault >= baseline + 0.03 (${(baseline + 0.03).toFixed(3)}): ` +
      `${verdict(at("default (rrf+rerank)").ndcg10 >= baseline + 0.03)}`,
  );
  console.log(`hybrid rrf >= max(keyword, vector) (${best.toFixed(3)}): ${verdict(at("hybrid rrf").ndcg10 >= best)}`);
}
