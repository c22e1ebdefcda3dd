// `npm run bench -- retrieval`: ingestion throughput and search latency of knowledge bases of
// 10,000 and 100,000 chunks (by default). The documents are synthetic and deterministic: a seeded
// PRNG draws words (Zipf-like) from a vocabulary of generated words, common English words and
// Chinese characters, and writes paragraphs of 780-800 characters so that each becomes one chunk.
// Files go up by multipart, at most 20 files and ~18 MB a request; throughput is the chunks of all
// files (their chunksCount) over the time from the first upload until every file is done.
// Then, per knowledge base, searches run one after another (after a warm-up) with queries of
// vocabulary words, once per method: keyword, vector, hybrid (RRF, no rerank), hybrid + rerank.
// Options: --sizes 10000,100000  --files 100  --searches 200  --port N  --files-per-upload 20 (the API's limit)
import { percentile, prng, startServer, LOCAL_KB_MODELS } from "./lib.mjs";
import { waitForIngestion } from "./quality.mjs";

const MAX_REQUEST_BYTES = 18 * 1024 * 1024;
const WARM_UP = 10;
const PARAGRAPH_MAX = 800; // the service's chunk length (src/services/knowledge/chunking.ts)
const INGEST_TIMEOUT_MS = Number(process.env.BENCH_INGEST_TIMEOUT_S ?? 4 * 3600) * 1000;

const METHODS = [
  { name: "keyword", searchMethod: "keyword", settings: { enableRrf: true, enableRerank: false } },
  { name: "vector", searchMethod: "vector", settings: { enableRrf: true, enableRerank: false } },
  { name: "hybrid", searchMethod: "hybrid", settings: { enableRrf: true, enableRerank: false } },
  { name: "hybrid+rerank", searchMethod: "hybrid", settings: { enableRrf: true, enableRerank: true } },
];

// ---------------------------------------------------------------------------------------------
// Deterministic text

const COMMON = (
  "account access adapter address alarm alert app area audio backup balance battery bill board box brand " +
  "budget button cable calendar camera card cart case " +
  "channel charge chart check city class client cloud code color column command company contract control cost " +
  "count country cover credit customer data date " +
  "day deal delivery desk device discount display document door download driver email energy engine error " +
  "event field file filter floor folder form frame " +
  "garden gate group guide hardware health history home hour image income index input invoice issue item key " +
  "kitchen label language layer level license light " +
  "limit line link list load lock login machine manager map market member memory menu message meter method " +
  "mode model module money month motor network " +
  "node note notice number offer office order owner package page panel partner password payment period phone " +
  "picture plan platform plug point policy port " +
  "power price printer process product profile program project queue radio range rate record refund region " +
  "release report request reset resource result " +
  "return review room route rule safety sale sample schedule screen search season sector sensor server " +
  "service session setting shipping signal site size " +
  "software sound source speaker speed staff status storage store stream subscription supply switch system " +
  "table tax team temperature term test ticket " +
  "time token tool topic track traffic transfer trial update upload user value vendor version video voice " +
  "volume wallet warranty water week window wire " +
  "work year zone able active basic clear close common correct daily direct early easy empty extra fast final " +
  "free full general global good great heavy " +
  "high large late light local long low main manual minor modern monthly new normal open original past " +
  "personal plain primary private public quick rapid " +
  "ready real recent regular remote right safe secure short simple single small smart soft special stable " +
  "standard strong sudden total usual valid warm " +
  "weekly wide wrong yearly add allow apply arrive ask become begin build buy call cancel carry change choose " +
  "clean collect come connect contain continue " +
  "create cut decide deliver describe design develop drive enable enter expect explain fail fill find finish " +
  "fix follow give grow handle happen help hold " +
  "improve include install keep know learn leave let lift link listen look lose make manage mark measure meet " +
  "move need offer open pay pick place plan " +
  "prepare press prevent print protect provide pull push reach read receive reduce remove repair replace " +
  "reply report require restore run save see select " +
  "send set share show sign start stay stop store support take talk tell test think track train try turn " +
  "understand upgrade use wait walk want watch write"
).split(" ");

const HANZI =
  "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种" +
  "面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本" +
  "去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比" +
  "或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总" +
  "次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做" +
  "必战先回则任取据处理府研质信";
const SYLLABLES = [
  "ka",
  "lo",
  "mi",
  "ren",
  "tas",
  "vor",
  "ul",
  "be",
  "zen",
  "qua",
  "dri",
  "fel",
  "gor",
  "hin",
  "jus",
  "kel",
  "mar",
  "nox",
  "pel",
  "ris",
  "sol",
  "tur",
  "vex",
  "wyn",
  "yar",
  "zo",
  "bri",
  "cal",
  "dor",
  "eth",
  "fin",
  "gal",
];

/** The vocabulary: ~3,000 generated words plus common English words, each with a Zipf-like weight. */
export function vocabulary(size = 3000, seed = 7) {
  const rand = prng(seed);
  const words = new Set(COMMON);
  while (words.size < size + COMMON.length) {
    const n = 2 + Math.floor(rand() * 3);
    let w = "";
    for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(rand() * SYLLABLES.length)];
    words.add(w);
  }
  // Shuffle so that common and generated words share the frequent ranks.
  const list = [...words];
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [list[i], list[j]] = [list[j], list[i]];
  }
  return list;
}

/** Draws ranks with P(rank r) ~ 1 / (r + 10): a flattened Zipf over n items. */
function zipfSampler(n, rand) {
  const cumulative = new Float64Array(n);
  let total = 0;
  for (let r = 0; r < n; r++) cumulative[r] = total += 1 / (r + 10);
  return () => {
    const x = rand() * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

export function textGenerator(seed, vocab = vocabulary()) {
  const rand = prng(seed);
  const pickWord = zipfSampler(vocab.length, rand);
  const pickHan = zipfSampler(HANZI.length, rand);
  const englishSentence = () => {
    const n = 7 + Math.floor(rand() * 11);
    const words = Array.from({ length: n }, () => vocab[pickWord()]);
    words[0] = words[0][0].toUpperCase() + words[0].slice(1);
    if (n > 10 && rand() < 0.4) words[Math.floor(n / 2)] += ",";
    return words.join(" ") + (rand() < 0.08 ? "?" : ".");
  };
  const chineseSentence = () => {
    const n = 20 + Math.floor(rand() * 20);
    let s = "";
    for (let i = 0; i < n; i++) s += HANZI[pickHan()];
    return s + (rand() < 0.1 ? "？" : "。");
  };
  /**
   * One paragraph of 780-800 characters, so that it is exactly one chunk: the service packs whole
   * sentences up to 800 characters, and no sentence (at least 20 characters) fits after 780 of them.
   */
  const paragraph = () => {
    const chinese = rand() < 0.15;
    const sep = chinese ? "" : " ";
    let text = "";
    while (text.length < 780) {
      let s = chinese ? chineseSentence() : englishSentence();
      const room = PARAGRAPH_MAX - text.length - (text ? sep.length : 0);
      if (s.length > room) {
        // Shorten the last sentence to fit: whole words (English) or characters (Chinese).
        const end = s.at(-1);
        let body = s.slice(0, -1);
        if (chinese) body = body.slice(0, room - 1);
        else
          while (body.length + 1 > room && body.includes(" "))
            body = body.slice(0, body.lastIndexOf(" ")).replace(/,$/, "");
        s = body + end;
        if (s.length > room) break;
      }
      text += (text ? sep : "") + s;
    }
    return text;
  };
  /** 1-4 vocabulary words, or 2-5 Chinese characters now and then. */
  const query = () => {
    if (rand() < 0.1) {
      const n = 2 + Math.floor(rand() * 4);
      let s = "";
      for (let i = 0; i < n; i++) s += HANZI[pickHan()];
      return s;
    }
    const r = rand();
    const n = r < 0.1 ? 1 : r < 0.45 ? 2 : r < 0.8 ? 3 : 4;
    // Queries lean on rarer words than the text does, as a user's would.
    return Array.from(
      { length: n },
      () => vocab[Math.min(vocab.length - 1, pickWord() + Math.floor(rand() * 200))],
    ).join(" ");
  };
  return { paragraph, query, rand };
}

/** `files` documents with `chunksPerFile` paragraphs each, as { filename, text }. */
export function* documents({ files, chunksPerFile, seed }) {
  const gen = textGenerator(seed);
  for (let f = 0; f < files; f++) {
    const paragraphs = Array.from({ length: chunksPerFile }, gen.paragraph);
    yield { filename: `doc-${String(f + 1).padStart(4, "0")}.txt`, text: `${paragraphs.join("\n\n")}\n` };
  }
}

// ---------------------------------------------------------------------------------------------

function parseArgs(argv) {
  const args = { sizes: [10_000, 100_000], files: 100, searches: 200, port: 8792, filesPerUpload: 20 };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split("=", 2);
    const value = () => inline ?? argv[++i];
    if (flag === "--sizes")
      args.sizes = value()
        .split(",")
        .map((s) => Number(s.replace(/_/g, "")));
    else if (flag === "--files") args.files = Number(value());
    else if (flag === "--searches") args.searches = Number(value());
    else if (flag === "--port") args.port = Number(value());
    else if (flag === "--files-per-upload") args.filesPerUpload = Number(value());
    else
      throw new Error(
        `unknown argument ${argv[i]} (expected --sizes 10000,100000 --files 100 --searches 200 --port N ` +
          `--files-per-upload 20)`,
      );
  }
  if (!args.sizes.length || args.sizes.some((s) => !Number.isInteger(s) || s < 1))
    throw new Error("--sizes: comma-separated chunk counts");
  return args;
}

const n = (x) => x.toLocaleString("en-US");

export default async function (argv = []) {
  const args = parseArgs(argv);
  const server = await startServer({ port: args.port });
  const api = server.api;

  const report = [];
  try {
    for (const size of args.sizes) {
      const files = Math.min(args.files, size);
      const chunksPerFile = Math.ceil(size / files);
      const kb = await api("/knowledge-bases/", {
        body: {
          name: `Bench retrieval ${size}`,
          ...LOCAL_KB_MODELS,
          numberOfRetrievedChunks: 20,
          similarityCutoff: 0,
          enableRrf: true,
          enableRerank: false,
        },
      });

      // Ingestion: uploads in requests of at most MAX_REQUEST_BYTES, then wait for every file.
      console.log(`[${n(size)}] uploading ${files} files x ${chunksPerFile} paragraphs`);
      const started = performance.now();
      let uploaded = 0;
      let bytes = 0;
      let form = new FormData();
      let formBytes = 0;
      let filesInForm = 0;
      const flush = async () => {
        if (!formBytes) return;
        const records = await api(`/knowledge-bases/${kb.id}/files/`, { form });
        if (!Array.isArray(records)) throw new Error(`upload answered ${JSON.stringify(records).slice(0, 500)}`);
        uploaded += records.length;
        form = new FormData();
        formBytes = 0;
        filesInForm = 0;
      };
      for (const doc of documents({ files, chunksPerFile, seed: size })) {
        const data = new TextEncoder().encode(doc.text);
        if (formBytes && (formBytes + data.length > MAX_REQUEST_BYTES || filesInForm >= args.filesPerUpload))
          await flush();
        form.append("file", new Blob([data], { type: "text/plain" }), doc.filename);
        formBytes += data.length;
        filesInForm++;
        bytes += data.length;
      }
      await flush();
      const uploadSeconds = (performance.now() - started) / 1000;
      if (uploaded !== files) throw new Error(`uploaded ${files} files, got ${uploaded} records`);
      let lastReport = 0;
      const done = await waitForIngestion(api, kb.id, files, INGEST_TIMEOUT_MS, {
        onProgress: (summary) => {
          if (performance.now() - lastReport < 10_000) return;
          lastReport = performance.now();
          console.log(`[${n(size)}] ${((performance.now() - started) / 1000).toFixed(1)} s: ${summary}`);
        },
      });
      const seconds = (performance.now() - started) / 1000;
      const chunks = done.reduce((a, f) => a + (f.chunksCount ?? 0), 0);
      console.log(
        `[${n(size)}] ingested ${n(chunks)} chunks (${(bytes / 1e6).toFixed(1)} MB, uploads took ` +
          `${uploadSeconds.toFixed(1)} s) in ${seconds.toFixed(1)} s = ${(chunks / seconds).toFixed(0)} ` +
          `chunks/s`,
      );

      // A base of 20,000 vectors or more gets k-means lists (durable-objects/vector-index.ts), built in an
      // alarm 3 s after the last write; give it time, as a base that stopped growing has.
      if (chunks >= 20_000) await new Promise((r) => setTimeout(r, 3_000 + chunks / 10));
      // Search latency: the same queries for every method, one at a time.
      const gen = textGenerator(size + 1);
      const queries = Array.from({ length: args.searches }, gen.query);
      const warm = Array.from({ length: WARM_UP }, gen.query);
      const latencies = {};
      for (const method of METHODS) {
        await api(`/knowledge-bases/${kb.id}/`, { method: "PATCH", body: method.settings });
        // The route pages by the query string's pageSize; the body's copy is what the written contract names.
        // The stages the server reports (Server-Timing: keyword, vector, rerank, hits) show where the time goes.
        const stages = {};
        const search = async (query) => {
          const res = await fetch(`${server.base}/api/v1/knowledge-bases/${kb.id}/search/?pageSize=20`, {
            method: "POST",
            headers: { ...server.headers, "Content-Type": "application/json" },
            body: JSON.stringify({ query, searchMethod: method.searchMethod, pageSize: 20 }),
          });
          const text = await res.text();
          if (!res.ok) throw new Error(`search: ${res.status} ${text.slice(0, 500)}`);
          for (const [, stage, dur] of (res.headers.get("Server-Timing") ?? "").matchAll(/(\w+);dur=([\d.]+)/g))
            (stages[stage] ??= []).push(Number(dur));
          return JSON.parse(text);
        };
        for (const q of warm) await search(q);
        const ms = [];
        let empty = 0;
        for (const q of queries) {
          const t0 = performance.now();
          const page = await search(q);
          ms.push(performance.now() - t0);
          if (!page.results?.length) empty++;
        }
        latencies[method.name] = ms;
        const breakdown = Object.entries(stages)
          .map(([stage, xs]) => `${stage} ${percentile(xs, 50).toFixed(1)}`)
          .join(", ");
        const [p50, p95] = [50, 95].map((p) => percentile(ms, p).toFixed(1).padStart(7));
        const searches = `${ms.length} searches${empty ? `, ${empty} without results` : ""}`;
        console.log(
          `[${n(size)}] ${method.name.padEnd(13)} p50 ${p50} ms  p95 ${p95} ms  ` +
            `(${searches}; server p50 ms: ${breakdown})`,
        );
      }
      report.push({ size, chunks, seconds, latencies });
    }

    console.log(
      `\nsize (chunks)   ingested  chunks/s | ${METHODS.map((m) => `${m.name} p50/p95 ms`.padStart(24)).join(" ")}`,
    );
    for (const r of report) {
      const cells = METHODS.map((m) => {
        const [p50, p95] = [50, 95].map((p) => percentile(r.latencies[m.name], p).toFixed(1));
        return `${p50} / ${p95}`.padStart(24);
      });
      console.log(
        `${n(r.size).padStart(13)} ${n(r.chunks).padStart(10)} ` +
          `${(r.chunks / r.seconds).toFixed(0).padStart(9)} | ${cells.join(" ")}`,
      );
    }
    const largest = report.reduce((a, b) => (b.size > a.size ? b : a));
    const p50 = percentile(largest.latencies.hybrid, 50);
    const reranked = percentile(largest.latencies["hybrid+rerank"], 50);
    const scaled = largest.size >= 100_000 ? "" : " [scaled-down run]";
    console.log(
      `\nhybrid p50 at ${n(largest.size)} chunks: ${p50.toFixed(1)} ms (target <= 20 ms)${scaled} ` +
        `${p50 <= 20 ? "PASS" : "FAIL"}`,
    );
    console.log(
      `hybrid+rerank p50 at ${n(largest.size)} chunks: ${reranked.toFixed(1)} ms (target <= 30 ms)${scaled} ` +
        `${reranked <= 30 ? "PASS" : "FAIL"}`,
    );
    // Growth of the cost with the base: an index grows sub-linearly, a scan in proportion.
    for (let i = 1; i < report.length; i++) {
      const [a, b] = [report[i - 1], report[i]];
      const ratio = (m) => (percentile(b.latencies[m], 50) / percentile(a.latencies[m], 50)).toFixed(2);
      console.log(
        `${n(a.size)} -> ${n(b.size)} chunks (x${(b.size / a.size).toFixed(1)}): ` +
          `p50 x ${METHODS.map((m) => `${m.name} ${ratio(m.name)}`).join(", ")}`,
      );
    }
  } finally {
    await server.stop();
  }
}
