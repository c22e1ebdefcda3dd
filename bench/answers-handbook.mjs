// The handbook section of `npm run bench -- answers` (`npm run bench -- answers --only handbook`):
// whether the built-in local model's replies read like answers, over docs/handbook.pdf, a second PDF
// set the same way (bench/data/handbook/rentals.txt: titles in the body's font size, so the PDF
// parser runs each into its first sentence) and a Traditional Chinese text. The questions
// (bench/data/handbook/questions.json) give the expected fact of each: plain facts, follow-ups (asked
// after their `history` in the same conversation), paraphrases sharing no word with their passage,
// questions the sources do not answer, yes/no questions, small talk and requests for a person, in
// English and Traditional Chinese. Figures:
//   first sentence   replies whose first sentence holds the expected fact (target >= 90%)
//   unrelated        replies holding a sentence that holds none of the question's topic words nor
//                    its expected fact (for a fixed reply: anything besides it) (target: 0 in >= 95%)
//   repeated         replies saying a sentence twice (target 0)
//   headings         reply sentences that are, or start with, a title of the documents (target 0)
// Each question goes through POST /chatbots/{id}/completions/ of an assistant on the Local LLM, in a
// conversation of its own.
// Also on its own: `npm run bench -- answers-handbook [--verbose] [--port N]`.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { waitForIngestion } from "./quality.mjs";
import { startServer, LOCAL_LLM, LOCAL_KB_MODELS } from "./lib.mjs";

const DATA = path.join(path.dirname(fileURLToPath(import.meta.url)), "data", "handbook");

/** Letters, digits and the euro sign, lower case, single spaces. */
const normal = (text) =>
  text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}€@]+/gu, " ")
    .trim();

/** Sentences of a reply: after `.`, `!` or `?` and a space, after a CJK stop, at line ends. */
export const replySentences = (text) =>
  text
    .split(/(?<=[.!?])\s+|(?<=[。！？])|\n+/u)
    .map((s) => s.trim())
    .filter(Boolean);

/** A PDF laid out as docs/handbook.pdf is: a 14 pt title, then 11 pt lines 18 pt apart, a blank line between sections.
 * */
async function handbookPdf(text) {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  const [title, ...lines] = text.trim().split("\n");
  page.drawText(title, { x: 56, y: 780, size: 14, font });
  let y = 762;
  for (const line of lines) {
    if (line.trim()) page.drawText(line.trim(), { x: 56, y, size: 11, font });
    y -= 18;
  }
  return doc.save();
}

/** The documents of the set as files to upload. */
async function documentsOf(set) {
  const files = [];
  for (const d of set.documents) {
    const bytes = readFileSync(path.join(DATA, d.file));
    const name = d.as ?? path.basename(d.file);
    if (name.endsWith(".pdf") && !d.file.endsWith(".pdf"))
      files.push({ name, type: "application/pdf", bytes: await handbookPdf(bytes.toString("utf8")) });
    else files.push({ name, type: name.endsWith(".pdf") ? "application/pdf" : "text/plain", bytes });
  }
  return files;
}

/** How one reply scores; `fixed`: the sentences of the model's fixed replies. */
export function judge(q, reply, { headings, fixed }) {
  const sentences = replySentences(reply);
  const first = sentences[0] ?? "";
  const hit = q.expect.some((e) => normal(first).includes(normal(e)));
  const related = (s) =>
    q.topic
      ? q.expect.some((e) => normal(s).includes(normal(e))) || q.topic.some((t) => normal(s).includes(normal(t)))
      : fixed.has(normal(s));
  const unrelated = sentences.filter((s) => !related(s));
  const seen = new Set();
  const repeated = sentences.filter((s) => (seen.has(normal(s)) ? true : (seen.add(normal(s)), false)));
  const titled = sentences.filter((s) =>
    headings.some((h) => normal(s) === normal(h) || (s.startsWith(`${h} `) && /^\p{Lu}/u.test(s.slice(h.length + 1)))),
  );
  return { hit, unrelated, repeated, titled };
}

/** Asks every question of the handbook set and prints its figures; returns them. */
export async function measureHandbook(api, { verbose = false } = {}) {
  const set = JSON.parse(readFileSync(path.join(DATA, "questions.json"), "utf8"));
  const fixed = new Set(set.fixedReplies.flatMap(replySentences).map(normal));
  const kb = (
    await api("/knowledge-bases/", {
      body: {
        name: "Bench answers (handbook)",
        ...LOCAL_KB_MODELS,
        similarityCutoff: 0,
        enableRrf: true,
        enableRerank: true,
      },
    })
  ).id;
  const form = new FormData();
  const files = await documentsOf(set);
  for (const f of files) form.append("file", new Blob([f.bytes], { type: f.type }), f.name);
  await api(`/knowledge-bases/${kb}/files/`, { form });
  await waitForIngestion(api, kb, files.length, 300_000);
  const bot = await api("/chatbots/", {
    body: {
      name: "Bench answers (handbook)",
      largeLanguageModel: LOCAL_LLM,
      instructions: "Answer from the Acme handbook.",
      knowledgeBases: [{ id: kb }],
    },
  });

  const results = [];
  for (const q of set.questions) {
    let conversation = null;
    for (const earlier of q.history ?? []) {
      const r = await api(`/chatbots/${bot.id}/completions/`, {
        body: { ...(conversation ? { conversation } : {}), message: { content: earlier } },
      });
      conversation = r.conversationId;
    }
    const { content } = await api(`/chatbots/${bot.id}/completions/`, {
      body: { ...(conversation ? { conversation } : {}), message: { content: q.question } },
    });
    results.push({ q, reply: content, ...judge(q, content, { headings: set.headings, fixed }) });
  }
  const n = results.length;
  const count = (f) => results.filter(f).length;
  const figures = {
    questions: n,
    firstSentence: count((r) => r.hit) / n,
    withoutUnrelated: count((r) => !r.unrelated.length) / n,
    repeated: count((r) => r.repeated.length),
    headings: results.reduce((s, r) => s + r.titled.length, 0),
    byKind: Object.fromEntries(
      [...new Set(results.map((r) => r.q.kind))].map((k) => [
        k,
        `${count((r) => r.q.kind === k && r.hit)}/${count((r) => r.q.kind === k)}`,
      ]),
    ),
  };
  if (verbose) {
    for (const r of results) {
      const marks = [
        r.hit ? "" : "MISS",
        r.unrelated.length ? "UNRELATED" : "",
        r.repeated.length ? "REPEAT" : "",
        r.titled.length ? "HEADING" : "",
      ]
        .filter(Boolean)
        .join(" ");
      console.log(
        `   ${r.q.id.padEnd(18)} ${marks.padEnd(10)} | ${r.q.question} | ${r.reply.replace(/\s+/g, " ").slice(0, 160)}`,
      );
    }
  }
  const pct = (x) => `${(100 * x).toFixed(1)}%`;
  console.log(
    `\nhandbook set, ${n} questions (docs/handbook.pdf, rentals.pdf, faq-zh.txt) through completions/ on the Local LLM`,
  );
  console.log(`  first sentence holds the expected fact  ${pct(figures.firstSentence)}  (target >= 90%)`);
  console.log(`  replies without an unrelated sentence   ${pct(figures.withoutUnrelated)}  (target >= 95%)`);
  console.log(`  replies repeating a sentence            ${figures.repeated}  (target 0)`);
  console.log(`  reply sentences that are headings       ${figures.headings}  (target 0)`);
  console.log(
    `  by kind (first sentence): ${Object.entries(figures.byKind)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")}`,
  );
  return figures;
}

export default async function (argv = []) {
  const args = { verbose: false, port: 8793 };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--verbose") args.verbose = true;
    else if (argv[i] === "--port") args.port = Number(argv[++i]);
    else throw new Error(`unknown argument ${argv[i]} (expected --verbose, --port N)`);
  }
  const server = await startServer({ port: args.port });
  try {
    await measureHandbook(server.api, { verbose: args.verbose });
  } finally {
    await server.stop();
  }
}
