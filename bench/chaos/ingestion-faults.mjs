// Knowledge ingestion under faults, at scale: every file of one knowledge base dies on its first
// delivery after 5 chunks (INGESTION_FAULT) and is retried by the real queue; in another, one file
// in ten can never be parsed. Chunks are counted in the stores themselves (the worker's D1 and
// VectorIndex SQLite files under its state directory): D1's text nodes, the keyword index and the
// local vector store, against the same files ingested without the fault.
import { readdirSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { LOCAL_KB_MODELS } from "../lib.mjs";

const FILES = Number(process.env.CHAOS_INGESTION_FILES ?? 40);
const DIE_AFTER = 5;
const WAIT_MS = 10 * 60_000;

export const description =
  `knowledge ingestion dying after ${DIE_AFTER} chunks on the first delivery of each of ${FILES} files; one ` +
  `file in ten never parsable`;
export const prepare = async () => ({
  vars: { INGESTION_FAULT: JSON.stringify({ afterChunks: DIE_AFTER, attempts: 1, filename: "^dies-" }) },
});

const text = (i) =>
  Array.from(
    { length: 160 },
    (_, p) =>
      `Section ${p} of guide ${i}: the harbour ferry ${i} leaves every ${p + 5} minutes from pier ${p}, ` +
      `weather permitting.`,
  ).join("\n\n");

export default async function ({ server, api, log }) {
  const dying = await api("POST", "/knowledge-bases/", { name: "dies part-way", ...LOCAL_KB_MODELS });
  const control = await api("POST", "/knowledge-bases/", { name: "control", ...LOCAL_KB_MODELS });
  const mixed = await api("POST", "/knowledge-bases/", { name: "one in ten broken", ...LOCAL_KB_MODELS });
  const started = Date.now();
  const upload = (kb, files) => uploadAll(server, kb.id, files);
  const [dyingFiles, controlFiles, mixedFiles] = await Promise.all([
    upload(
      dying,
      Array.from({ length: FILES }, (_, i) => ({ name: `dies-${i}.txt`, content: text(i) })),
    ),
    upload(
      control,
      Array.from({ length: FILES }, (_, i) => ({ name: `ok-${i}.txt`, content: text(i) })),
    ),
    upload(
      mixed,
      Array.from({ length: FILES }, (_, i) =>
        i % 10 === 2
          ? { name: `scan-${i}.pdf`, content: "%PDF-1.7 cut off", type: "application/pdf" }
          : { name: `ok-${i}.txt`, content: text(i) },
      ),
    ),
  ]);
  log(`${3 * FILES} files uploaded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const finished = await Promise.all(
    [dying, control, mixed].map((kb, k) =>
      waitForFiles(api, kb.id, [dyingFiles, controlFiles, mixedFiles][k].length, started),
    ),
  );
  const expected = new Map(finished[1].files.map((f) => [Number(/ok-(\d+)/.exec(f.filename)[1]), f.chunksCount]));
  const stores = readStores(server.state);

  const rowFor = (fault, { files, doneAt }, expectFor) => {
    let lost = 0;
    let duplicated = 0;
    for (const f of files) {
      const want = expectFor(f);
      const held = stores.get(f.id) ?? { d1: new Set(), positions: 0, keywords: new Set(), vectors: new Set() };
      duplicated += held.d1.size - held.positions;
      duplicated +=
        [...held.keywords].filter((id) => !held.d1.has(id)).length +
        [...held.vectors].filter((id) => !held.d1.has(id)).length;
      const complete =
        f.status === want.status &&
        held.d1.size === want.chunks &&
        [...held.d1].every((id) => held.keywords.has(id) && held.vectors.has(id));
      if (!complete || (want.status === "failed" && !f.processingTimeDetails?.error)) lost++;
    }
    const held = files.map((f) => stores.get(f.id)).filter(Boolean);
    const total = (key) => held.reduce((n, e) => n + e[key].size, 0);
    const note =
      `chunks held: ${total("d1")} in D1, ${total("keywords")} in the keyword index, ${total("vectors")} in the ` +
      `vector store; the same files without the fault were processed in ${seconds(finished[1].doneAt)}`;
    return {
      fault,
      operations: `${files.length} files`,
      lost,
      duplicated,
      recovery: doneAt ? `${seconds(doneAt)} to all processed` : "not within 10 min",
      note,
    };
  };
  const seconds = (at) => (at ? `${((at - started) / 1000).toFixed(1)} s` : "-");
  const index = (f) => Number(/-(\d+)\./.exec(f.filename)[1]);
  return [
    rowFor(`ingestion dies after ${DIE_AFTER} chunks, first delivery (queue retry)`, finished[0], (f) => ({
      status: "done",
      chunks: expected.get(index(f)),
    })),
    rowFor("1 file in 10 never parsable, same batches", finished[2], (f) =>
      f.filename.endsWith(".pdf")
        ? { status: "failed", chunks: 0 }
        : { status: "done", chunks: expected.get(index(f)) },
    ),
  ];
}

/** Uploads files by multipart, ten a request; returns their records. */
async function uploadAll(server, kbId, files) {
  const created = [];
  for (let i = 0; i < files.length; i += 10) {
    const form = new FormData();
    for (const f of files.slice(i, i + 10))
      form.append("file", new File([f.content], f.name, { type: f.type ?? "text/plain" }));
    created.push(...(await server.api(`/knowledge-bases/${kbId}/files/`, { form })));
  }
  return created;
}

/** Polls a knowledge base until its `count` files are done or failed; when that happened (null: not within WAIT_MS). */
async function waitForFiles(api, kbId, count, started) {
  for (;;) {
    const files = [];
    for (let page = 1; files.length < count; page++)
      files.push(...(await api("GET", `/knowledge-bases/${kbId}/files/?page=${page}&pageSize=100`)).results);
    if (files.every((f) => f.status === "done" || f.status === "failed")) return { files, doneAt: Date.now() };
    if (Date.now() - started > WAIT_MS) return { files, doneAt: null };
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** Per file id: its text node ids in D1 (and how many distinct positions), and the ids the keyword index and vector
 * store hold for it. */
function readStores(state) {
  const byFile = new Map();
  const entry = (fileId) =>
    byFile.get(fileId) ??
    byFile.set(fileId, { d1: new Set(), positions: new Set(), keywords: new Set(), vectors: new Set() }).get(fileId);
  const read = (dir, fn) => {
    for (const name of readdirSync(dir).filter((f) => f.endsWith(".sqlite"))) {
      const db = new DatabaseSync(path.join(dir, name));
      try {
        fn(db);
      } finally {
        db.close();
      }
    }
  };
  const has = (db, table) => db.prepare("select 1 from sqlite_master where type = 'table' and name = ?").get(table);
  read(path.join(state, "v3", "d1", "miniflare-D1DatabaseObject"), (db) => {
    if (!has(db, "text_nodes")) return;
    for (const r of db.prepare("select id, file_id, position from text_nodes").all()) {
      entry(r.file_id).d1.add(r.id);
      entry(r.file_id).positions.add(r.position);
    }
  });
  read(path.join(state, "v3", "do", "assistant-platform-VectorIndex"), (db) => {
    if (has(db, "keyword_documents"))
      for (const r of db.prepare("select id, source_id from keyword_documents").all())
        entry(r.source_id).keywords.add(r.id);
    if (has(db, "vectors"))
      for (const r of db.prepare("select id, source_id from vectors").all()) entry(r.source_id).vectors.add(r.id);
  });
  for (const e of byFile.values()) e.positions = e.positions.size;
  return byFile;
}
