// `npm run bench -- answers` (also the last part of `npm run bench -- quality`): what the built-in
// local model answers on the help-centre set (bench/data/quality/), asked through
// POST /chatbots/{id}/completions/ of an assistant on the Local LLM. Gold: answers.json gives, for
// each question, the sentence of its documents that answers it (a few questions accept any of two
// or three). Three knowledge bases, on the default retrieval settings:
//   FAQ, as asked     one FAQ per question: the question as written, its article's text as the answer
//                     (a visitor asks an FAQ's question and must get its answer)
//   FAQ, by title     one FAQ per article: its title as the question (every question is a paraphrase)
//   documents         the articles as files
// Figures per base: the share of replies that contain a key sentence (overall, en, zh), and the
// replies that echo the question: hold a sentence whose words are mostly the question's and that
// says at least half of the question's words (word-level; each CJK character is a word).
// Then the handbook set (bench/answers-handbook.mjs): whether replies read like answers (the expected
// fact in the first sentence, no unrelated or repeated sentence, no heading).
// Options: --verbose (each miss and echo), --port N, --dump FILE (question, reply and keys as JSON),
// --only help-centre|handbook (one of the two sets).
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startServer, LOCAL_LLM, LOCAL_KB_MODELS } from "./lib.mjs";
import { loadCorpus, loadQuestions, waitForIngestion } from "./quality.mjs";
import { measureHandbook } from "./answers-handbook.mjs";

const DATA = path.join(path.dirname(fileURLToPath(import.meta.url)), "data", "quality");

// ---------------------------------------------------------------------------------------------
// Scoring

/** Letters and digits only, lower case, single spaces: how a key sentence is looked for in a reply. */
export const normal = (text) =>
  text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

/** Words of a text: Latin words, and each CJK character. */
const words = (text) =>
  new Set(normal(text).match(/[\u3400-\u9fff\uf900-\ufaff]|[^\s\u3400-\u9fff\uf900-\ufaff]+/gu) ?? []);

/** Sentences of a reply: split after `.`, `!` or `?` and a space, after a CJK stop, and at line ends. */
const replySentences = (text) => text.split(/(?<=[.!?])\s+|(?<=[。！？])|\n+/u).filter((s) => s.trim());

/** Whether the reply contains one of the key sentences. */
export const containsKey = (reply, keys) => keys.some((k) => normal(reply).includes(normal(k)));

/** The reply sentence that restates the question, or null (see the header). */
export function echoOf(reply, question) {
  const asked = words(question);
  for (const sentence of replySentences(reply)) {
    const said = words(sentence);
    let common = 0;
    for (const w of said) if (asked.has(w)) common++;
    if (said.size && common / said.size >= 0.6 && common / asked.size >= 0.5) return sentence.trim();
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Data

/** Key sentences by question id, each checked to occur in one of the question's documents. */
export function loadAnswers(questions, corpus) {
  const answers = JSON.parse(readFileSync(path.join(DATA, "answers.json"), "utf8"));
  const text = new Map(corpus.map((d) => [d.filename, normal(d.text)]));
  for (const q of questions) {
    const keys = answers[q.id];
    if (!Array.isArray(keys) || !keys.length) throw new Error(`answers.json: no key sentence for ${q.id}`);
    for (const k of keys)
      if (!q.relevant.some((f) => text.get(f).includes(normal(k))))
        throw new Error(`answers.json: ${q.id}'s key "${k}" is in none of ${q.relevant.join(", ")}`);
  }
  return answers;
}

/** An article's title and text. */
export function articleOf(doc) {
  const [first, ...rest] = doc.text.trim().split("\n");
  return { title: first.replace(/^#+\s*/, "").trim(), text: rest.join("\n").trim() };
}

/** The FAQs of each FAQ base: per question (as written, with the article holding its key), or per article (its title).
 * */
export function faqsOf(kind, { corpus, questions, answers }) {
  if (kind === "title") return corpus.map((d) => ({ question: articleOf(d).title, answer: articleOf(d).text }));
  const byName = new Map(corpus.map((d) => [d.filename, d]));
  return questions.map((q) => {
    const doc = q.relevant
      .map((f) => byName.get(f))
      .find((d) => answers[q.id].some((k) => normal(d.text).includes(normal(k))));
    return { question: q.question, answer: articleOf(doc).text };
  });
}

// ---------------------------------------------------------------------------------------------

/**
 * Asks every question of both bases and prints the figures; `docsKnowledgeBaseId` is a base that
 * already holds the corpus as files (else one is made). Returns the rows.
 */
export async function measureAnswers(
  api,
  { corpus, questions, docsKnowledgeBaseId = null, verbose = false, dump = null },
) {
  const answers = loadAnswers(questions, corpus);
  const base = {
    ...LOCAL_KB_MODELS,
    similarityCutoff: 0,
    enableRrf: true,
    enableRerank: true,
  };
  let docsKb = docsKnowledgeBaseId;
  if (docsKb)
    await api(`/knowledge-bases/${docsKb}/`, { method: "PATCH", body: { enableRrf: true, enableRerank: true } });
  else {
    docsKb = (await api("/knowledge-bases/", { body: { name: "Bench answers (documents)", ...base } })).id;
    for (let i = 0; i < corpus.length; i += 20) {
      const form = new FormData();
      for (const doc of corpus.slice(i, i + 20))
        form.append("file", new Blob([doc.text], { type: "text/markdown" }), doc.filename);
      await api(`/knowledge-bases/${docsKb}/files/`, { form });
    }
    await waitForIngestion(api, docsKb, corpus.length, 600_000);
  }
  const faqBase = async (kind) => {
    const id = (await api("/knowledge-bases/", { body: { name: `Bench answers (FAQ, ${kind})`, ...base } })).id;
    for (const faq of faqsOf(kind, { corpus, questions, answers }))
      await api(`/knowledge-bases/${id}/faqs/`, { body: faq });
    return id;
  };
  const sources = [
    ["FAQ, as asked", await faqBase("asked")],
    ["FAQ, by title", await faqBase("title")],
    ["documents", docsKb],
  ];

  const rows = [];
  const dumped = {};
  for (const [name, kb] of sources) {
    const bot = await api("/chatbots/", {
      body: { name: `Bench answers (${name})`, largeLanguageModel: LOCAL_LLM, knowledgeBases: [{ id: kb }] },
    });
    const results = [];
    for (const q of questions) {
      const { content } = await api(`/chatbots/${bot.id}/completions/`, { body: { message: { content: q.question } } });
      results.push({ q, reply: content, hit: containsKey(content, answers[q.id]), echo: echoOf(content, q.question) });
    }
    const share = (lang) => {
      const sel = results.filter((r) => !lang || r.q.lang === lang);
      return sel.filter((r) => r.hit).length / sel.length;
    };
    rows.push({
      name,
      all: share(),
      en: share("en"),
      zh: share("zh"),
      echoes: results.filter((r) => r.echo).length,
      count: results.length,
    });
    dumped[name] = results.map((r) => ({
      id: r.q.id,
      question: r.q.question,
      reply: r.reply,
      keys: answers[r.q.id],
      hit: r.hit,
      echo: r.echo,
    }));
    if (verbose) {
      console.log(`-- ${name}: replies without a key sentence, and echoes`);
      const flat = (text, n) => text.replace(/\s+/g, " ").slice(0, n);
      for (const r of results.filter((r) => !r.hit || r.echo))
        console.log(
          `   ${r.q.id} ${r.hit ? "" : "MISS "}${r.echo ? `ECHO "${r.echo}" ` : ""}` +
            `| ${flat(r.q.question, 60)} | ${flat(r.reply, 140)}`,
        );
    }
  }
  if (dump) writeFileSync(dump, JSON.stringify(dumped, null, 1));
  printAnswers(rows, questions.length);
  return rows;
}

function printAnswers(rows, count) {
  const pct = (x) => `${(100 * x).toFixed(1)}%`;
  console.log(
    `\nanswers of the built-in local model, ${count} questions: replies containing the key sentence, and ` +
      `echoes of the question`,
  );
  const line = (cells) => cells.map((c, i) => (i === 0 ? String(c).padEnd(14) : String(c).padStart(9))).join(" ");
  console.log(line(["source", "key", "  (en)", "  (zh)", "echoes"]));
  for (const r of rows) console.log(line([r.name, pct(r.all), pct(r.en), pct(r.zh), `${r.echoes}/${r.count}`]));
}

export default async function (argv = []) {
  const args = { verbose: false, port: 8792, dump: null, only: null };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--verbose") args.verbose = true;
    else if (argv[i] === "--port") args.port = Number(argv[++i]);
    else if (argv[i] === "--dump") args.dump = argv[++i];
    else if (argv[i] === "--only" && ["help-centre", "handbook"].includes(argv[i + 1])) args.only = argv[++i];
    else
      throw new Error(
        `unknown argument ${argv[i]} (expected --verbose, --port N, --dump FILE, --only help-centre|handbook)`,
      );
  }
  const server = await startServer({ port: args.port });
  try {
    if (args.only !== "handbook") {
      const corpus = loadCorpus();
      await measureAnswers(server.api, {
        corpus,
        questions: loadQuestions(corpus),
        verbose: args.verbose,
        dump: args.dump,
      });
    }
    if (args.only !== "help-centre") await measureHandbook(server.api, { verbose: args.verbose });
  } finally {
    await server.stop();
  }
}
