import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { IngestionJob } from "../../src/services/knowledge/content";
import { knowledgeIndexOf } from "../../src/services/knowledge/retrieval/knowledge-index";
import { countRows, bindingsWith, fetchWithSettings, seedOwner, unique, type Actor, type Settings } from "../harness";
import { createKnowledgeBase } from "../fixtures/knowledge";
import { vectorizeStandIn } from "../support/vectorize-stand-in";
import { bodyOf, healthOf } from "../support/api";
import { standIn } from "../support/bindings";
import { runQueue } from "../support/queues";

/**
 * Ingestion that dies part-way (INGESTION_FAULT, src/services/knowledge/ingestion-fault.ts) and files that can
 * never be parsed. Uploads go through the real route, but their jobs are held here instead of being
 * sent to the local queue, so that each delivery (its attempt number, its settings) is this test's.
 */
function holdingQueue() {
  const jobs: IngestionJob[] = [];
  return {
    jobs,
    async send(body: IngestionJob) {
      jobs.push(body);
    },
    async sendBatch(messages: { body: IngestionJob }[]) {
      jobs.push(...messages.map((m) => m.body));
    },
  };
}

/** Runs the real queue consumer on jobs delivered for the `attempts`-th time, with `settings` over the test bindings.
 * */
async function deliver(jobs: IngestionJob[], attempts: number, settings: Settings = {}) {
  const messages = jobs.map((body) => ({ id: unique("delivery"), body, attempts }));
  const result = await runQueue("knowledge-ingestion", messages, bindingsWith(settings));
  const retried = new Set(result.retryMessages.map((m) => m.msgId));
  return {
    acked: result.explicitAcks.length,
    retried: messages.filter((m) => retried.has(m.id)).map((m) => m.body),
  };
}

async function upload(owner: Actor, kbId: string, files: { name: string; content: string; type?: string }[]) {
  const queue = holdingQueue();
  const form = new FormData();
  for (const f of files) form.append("file", new File([f.content], f.name, { type: f.type ?? "text/plain" }));
  const res = await owner.fetch("POST", `/knowledge-bases/${kbId}/files/`, form, {
    settings: { INGESTION_QUEUE: standIn("INGESTION_QUEUE", queue) },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return { files: await bodyOf<"POST /knowledge-bases/{knowledgeBaseId}/files/">(res), jobs: queue.jobs };
}

/** A fresh organization's knowledge base with one file uploaded, its ingestion held: the file and its jobs. */
async function oneFile(name: string, content: string) {
  const owner = await seedOwner();
  const kb = await createKnowledgeBase(owner);
  const {
    files: [file],
    jobs,
  } = await upload(owner, kb.id, [{ name, content }]);
  return { owner, kb, file, jobs };
}

const fileOf = async (owner: Actor, kbId: string, fileId: string) =>
  await bodyOf<"GET /knowledge-bases/{knowledgeBaseId}/files/{fileId}/">(
    await owner.fetch("GET", `/knowledge-bases/${kbId}/files/${fileId}/`),
  );

/** A file's chunks as each store holds them: ids in D1 (with positions and FTS rows), the keyword index and the local
 * vector store. */
async function chunksOf(kbId: string, fileId: string) {
  const nodes = await env.DB.prepare("select id, position from text_nodes where file_id = ? order by position")
    .bind(fileId)
    .all<{ id: string; position: number }>();
  const fts = await countRows(
    env.DB,
    "text_nodes_fts WHERE rowid IN (SELECT rowid FROM text_nodes WHERE file_id = ?)",
    fileId,
  );
  const [keywords, vectors] = await runInDurableObject(knowledgeIndexOf(env, kbId), async (_, state) => [
    state.storage.sql
      .exec<{ id: string }>("select id from keyword_documents where source_id = ? order by id", fileId)
      .toArray()
      .map((r) => r.id),
    state.storage.sql
      .exec<{ id: string }>("select id from vectors where source_id = ? order by id", fileId)
      .toArray()
      .map((r) => r.id),
  ]);
  return {
    d1: nodes.results.map((r) => r.id).sort(),
    positions: nodes.results.map((r) => r.position),
    fts,
    keywords,
    vectors,
  };
}

/** Exactly `count` chunks, the same ids in D1, its FTS index, the keyword index and the vector store, positions
 * 0..count-1. */
async function expectExactChunks(kbId: string, fileId: string, count: number) {
  const c = await chunksOf(kbId, fileId);
  expect(c.d1).toHaveLength(count);
  expect(c.positions).toEqual([...Array(count).keys()]);
  expect(c.fts).toBe(count);
  expect(c.keywords).toEqual(c.d1);
  expect(c.vectors).toEqual(c.d1);
  return c.d1;
}

/** A text long enough for a dozen or more chunks (800 characters each), with a word of its own. */
const longText = (word: string) =>
  Array.from(
    { length: 40 },
    (_, i) =>
      `Paragraph ${i} about ${word}: the harbour ferry leaves every ${i + 5} minutes and stops at pier ${i}, ` +
      `weather permitting.`,
  )
    .join("\n\n")
    .repeat(3);

const FAULT = (fault: Record<string, unknown>): Settings => ({ INGESTION_FAULT: JSON.stringify(fault) });

describe("ingestion that dies part-way", () => {
  it(
    "is retried and ends with exactly the file's chunks: none duplicated or left behind in D1, the keyword " +
      "index or the vector store",
    async () => {
      const word = unique("ferry").replace(/[^a-z0-9]/g, "");
      const { owner, kb, file, jobs } = await oneFile("ferries.txt", longText(word));
      const fault = FAULT({ afterChunks: 3, attempts: 2 });

      // First delivery: dies after 3 chunks reached the indexes; the message is retried.
      expect(await deliver(jobs, 1, fault)).toMatchObject({ acked: 0, retried: jobs });
      const first = await chunksOf(kb.id, file.id);
      const total = first.d1.length;
      expect(total).toBeGreaterThan(10);
      expect(first.keywords).toHaveLength(3);
      expect(first.vectors).toHaveLength(3);
      expect((await fileOf(owner, kb.id, file.id)).status).toBe("processing");

      // Second delivery dies too; what the first wrote is gone, only its own 3 chunks are indexed.
      expect(await deliver(jobs, 2, fault)).toMatchObject({ acked: 0, retried: jobs });
      const second = await chunksOf(kb.id, file.id);
      expect(second.keywords).toHaveLength(3);
      expect(second.keywords.filter((id) => first.d1.includes(id))).toEqual([]);
      expect(second.vectors).toEqual(second.keywords);

      // The third succeeds: every chunk once, in every store.
      expect(await deliver(jobs, 3, fault)).toMatchObject({ acked: 1, retried: [] });
      const record = await fileOf(owner, kb.id, file.id);
      expect(record).toMatchObject({ status: "done", chunksCount: total });
      const ids = await expectExactChunks(kb.id, file.id, total);
      expect(ids.filter((id) => second.d1.includes(id))).toEqual([]);

      // A search finds the file's passages once each.
      const res = await owner.fetch("POST", `/knowledge-bases/${kb.id}/search/`, { query: `${word} pier 7` });
      expect(res.status, await res.clone().text()).toBe(200);
      const found = (await bodyOf<"POST /knowledge-bases/{knowledgeBaseId}/search/">(res)).results.map((r) => r.text);
      expect(found.length).toBeGreaterThan(0);
      expect(new Set(found).size).toBe(found.length);
    },
  );

  it("a reparse that dies part-way leaves neither the old generation's chunks nor its own partial ones", async () => {
    const { owner, kb, file, jobs } = await oneFile("ferries.md", longText("timetable"));
    expect(await deliver(jobs, 1)).toMatchObject({ acked: 1 });
    const total = (await fileOf(owner, kb.id, file.id)).chunksCount;
    const before = await expectExactChunks(kb.id, file.id, total);

    const queue = holdingQueue();
    const res = await owner.fetch("PATCH", `/knowledge-bases/${kb.id}/files/batch-reparse/`, [{ id: file.id }], {
      settings: { INGESTION_QUEUE: standIn("INGESTION_QUEUE", queue) },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const fault = FAULT({ afterChunks: 5, attempts: 1 });
    expect(await deliver(queue.jobs, 1, fault)).toMatchObject({ acked: 0, retried: queue.jobs });
    // The old generation left the indexes before D1 let go of it.
    expect((await chunksOf(kb.id, file.id)).keywords.filter((id) => before.includes(id))).toEqual([]);
    expect(await deliver(queue.jobs, 2, fault)).toMatchObject({ acked: 1 });
    const after = await expectExactChunks(kb.id, file.id, total);
    expect(after.filter((id) => before.includes(id))).toEqual([]);
  });

  it("leaves no duplicate in Vectorize either", async () => {
    const { kb, file, jobs } = await oneFile("ferries.txt", longText("vectorize"));
    const vectorize = vectorizeStandIn();
    const settings = { ...FAULT({ afterChunks: 4, attempts: 2 }), VECTORIZE: standIn("VECTORIZE", vectorize) };
    for (const attempt of [1, 2]) expect(await deliver(jobs, attempt, settings)).toMatchObject({ retried: jobs });
    expect(vectorize.stored.size).toBe(4);
    expect(await deliver(jobs, 3, settings)).toMatchObject({ acked: 1 });
    const { d1, keywords } = await chunksOf(kb.id, file.id);
    expect([...vectorize.stored.keys()].sort()).toEqual(d1);
    expect(keywords).toEqual(d1);
    expect([...vectorize.stored.values()].every((v) => v.namespace === kb.id && v.metadata.sourceId === file.id)).toBe(
      true,
    );
  });

  it(
    "a vector store that fails to delete strands no old chunk: old chunks leave the indexes before D1 lets go " +
      "of them",
    async () => {
      const { owner, kb, file, jobs } = await oneFile("ferries.txt", longText("outage"));
      const vectorize = vectorizeStandIn();
      const settings = { VECTORIZE: standIn("VECTORIZE", vectorize) };
      expect(await deliver(jobs, 1, settings)).toMatchObject({ acked: 1 });
      const before = [...vectorize.stored.keys()];

      const queue = holdingQueue();
      await owner.fetch("PATCH", `/knowledge-bases/${kb.id}/files/batch-reparse/`, [{ id: file.id }], {
        settings: { INGESTION_QUEUE: standIn("INGESTION_QUEUE", queue) },
      });
      vectorize.faults.failDeletes = 1;
      expect(await deliver(queue.jobs, 1, settings)).toMatchObject({ retried: queue.jobs });
      expect(await deliver(queue.jobs, 2, settings)).toMatchObject({ acked: 1 });
      const { d1, keywords } = await chunksOf(kb.id, file.id);
      expect(d1).toHaveLength(before.length);
      expect([...vectorize.stored.keys()].sort()).toEqual(d1);
      expect(keywords).toEqual(d1);
    },
  );
});

describe("two deliveries of one job at the same time (queues deliver at least once)", () => {
  it("end with exactly one run's chunks in D1, the keyword index and the vector store, and the file done", async () => {
    const owner = await seedOwner();
    const kb = await createKnowledgeBase(owner);
    let {
      files: [file],
      jobs,
    } = await upload(owner, kb.id, [
      { name: "twice.txt", content: longText(unique("twice").replace(/[^a-z0-9]/g, "")) },
    ]);
    // Three runs of one job at once, three times (the first ingestion, then two reparses): each set
    // interleaves at its own awaits.
    for (let round = 0; round < 3; round++) {
      const delivered = await Promise.all([deliver(jobs, 1), deliver(jobs, 1), deliver(jobs, 1)]);
      expect(delivered.map((d) => d.acked)).toEqual([1, 1, 1]);
      const record = await fileOf(owner, kb.id, file.id);
      expect(record.status).toBe("done");
      await expectExactChunks(kb.id, file.id, record.chunksCount);
      const queue = holdingQueue();
      const res = await owner.fetch("PATCH", `/knowledge-bases/${kb.id}/files/batch-reparse/`, [{ id: file.id }], {
        settings: { INGESTION_QUEUE: standIn("INGESTION_QUEUE", queue) },
      });
      expect(res.status, await res.clone().text()).toBeLessThan(300);
      jobs = queue.jobs;
    }
  });
});

describe("a batch of ten files where the third fails", () => {
  const batchOfTen = (broken: { content: string; type?: string; name: string }) =>
    Array.from({ length: 10 }, (_, i) =>
      i === 2 ? broken : { name: `guide-${i}.txt`, content: longText(`topic${i}`) },
    );

  it("a file that can never be parsed ends failed with its reason at once; the other nine are done", async () => {
    const owner = await seedOwner();
    const kb = await createKnowledgeBase(owner);
    const { files, jobs } = await upload(
      owner,
      kb.id,
      batchOfTen({ name: "scan.pdf", content: "%PDF-1.7 truncated garbage", type: "application/pdf" }),
    );
    expect(await deliver(jobs, 1)).toEqual({ acked: 10, retried: [] });
    for (const [i, f] of files.entries()) {
      const record = await fileOf(owner, kb.id, f.id);
      if (i === 2) {
        expect(record).toMatchObject({ status: "failed", chunksCount: 0, processingTimeDetails: { stage: "parsing" } });
        expect(String(record.processingTimeDetails.error)).toMatch(/pdf/i);
        await expectExactChunks(kb.id, f.id, 0);
      } else {
        expect(record.status, JSON.stringify(record.processingTimeDetails)).toBe("done");
        await expectExactChunks(kb.id, f.id, record.chunksCount);
      }
    }
  });

  it(
    "a file that dies part-way on every delivery is retried, then failed with its reason and no chunks left; " +
      "the other nine are done",
    async () => {
      const owner = await seedOwner();
      const kb = await createKnowledgeBase(owner);
      const { files, jobs } = await upload(
        owner,
        kb.id,
        batchOfTen({ name: "doomed.txt", content: longText("doomed") }),
      );
      const fault = FAULT({ afterChunks: 2, filename: "^doomed" });
      const first = await deliver(jobs, 1, fault);
      expect(first.acked).toBe(9);
      expect(first.retried.map((j) => j.kind === "file" && j.fileId)).toEqual([files[2].id]);
      for (const attempt of [2, 3])
        expect(await deliver(first.retried, attempt, fault)).toMatchObject({ retried: first.retried });
      // The last delivery (wrangler.toml max_retries 3): failed, with the reason, and nothing of it indexed.
      expect(await deliver(first.retried, 4, fault)).toEqual({ acked: 1, retried: [] });
      const doomed = await fileOf(owner, kb.id, files[2].id);
      expect(doomed).toMatchObject({ status: "failed", chunksCount: 0, processingTimeDetails: { stage: "indexing" } });
      expect(String(doomed.processingTimeDetails.error)).toMatch(/died after 2 of \d+ chunks/);
      await expectExactChunks(kb.id, files[2].id, 0);
      for (const f of files.filter((_, i) => i !== 2)) {
        const record = await fileOf(owner, kb.id, f.id);
        expect(record.status).toBe("done");
        await expectExactChunks(kb.id, f.id, record.chunksCount);
      }
    },
  );
});

describe("INGESTION_FAULT", () => {
  it("is listed by /health while set, so that no deployment keeps it by mistake", async () => {
    const health = async (settings: Settings) => {
      return healthOf(await fetchWithSettings(new Request("http://localhost/health"), settings));
    };
    expect((await health({})).settings.map((s) => s.name)).not.toContain("INGESTION_FAULT");
    const on = await health(FAULT({ afterChunks: 1 }));
    expect(on.status).toBe("degraded");
    expect(on.settings.find((s) => s.name === "INGESTION_FAULT")?.problem).toMatch(/on purpose/);
    const bad = await health({ INGESTION_FAULT: "{nope" });
    expect(bad.settings.find((s) => s.name === "INGESTION_FAULT")?.problem).toMatch(/not valid/);
  });
});
