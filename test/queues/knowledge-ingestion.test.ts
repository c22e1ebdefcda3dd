import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { knowledgeBaseFiles } from "../../src/db/schema";
import { db, seedOwner, unique } from "../harness";
import { upstreamModel } from "../routes/chat-completions/fixtures";
import { createKnowledgeBase, uploadFiles } from "../fixtures/knowledge";
import { bodyOf } from "../support/api";
import { type IngestionJob, objectPrefixOf } from "../../src/services/knowledge/content";
import { vectorStoreFor } from "../../src/services/knowledge/vector-store";
import { runQueue } from "../support/queues";

/** Runs the queue consumer on one ingestion job delivered for the `attempts`-th time. */
async function deliver(fileId: string, generation: number, attempts: number) {
  return deliverJob({ kind: "file", fileId, generation }, attempts);
}

const deliverJob = (body: IngestionJob, attempts: number) =>
  runQueue("knowledge-ingestion", [{ id: unique("delivery"), body, attempts }]);

const fileRow = async (id: string) =>
  (await db().select().from(knowledgeBaseFiles).where(eq(knowledgeBaseFiles.id, id)))[0];

describe("knowledge ingestion when the embedding provider keeps failing", () => {
  it("retries a transient failure, and on the last delivery marks the file failed with the reason", async () => {
    const owner = await seedOwner();
    // An embedding model on the local upstream (test/support/openai-upstream.mjs); "fail-500" makes it answer 500.
    const embedder = await upstreamModel(owner, { path: "/embedding-models/", modelName: "fail-500", dimensions: 8 });
    const kb = await createKnowledgeBase(owner, { embeddingModel: embedder.id });
    const [file] = await uploadFiles(owner, kb.id, [
      { name: "notes.txt", content: "Our office opens at nine. Parking is free for visitors." },
    ]);
    const { generation } = await fileRow(file.id);

    // An early delivery: the provider's 500 is worth another try, so the message is retried and the file is not failed.
    const early = await deliver(file.id, generation, 1);
    expect(early.retryMessages).toHaveLength(1);
    expect(early.explicitAcks).toEqual([]);
    expect((await fileRow(file.id)).status).not.toBe("failed");

    // The last delivery (wrangler.toml max_retries 3): the message is acknowledged and the file says why it failed.
    const last = await deliver(file.id, generation, 4);
    expect(last.retryMessages).toEqual([]);
    expect(last.explicitAcks).toHaveLength(1);
    const failed = await fileRow(file.id);
    expect(failed.status).toBe("failed");
    expect(failed.processingTimeDetails).toMatchObject({ stage: "embedding", error: expect.stringMatching(/500/) });

    // The API shows the same, and no chunk of the file was indexed.
    const record = await bodyOf<"GET /knowledge-bases/{knowledgeBaseId}/files/{fileId}/">(
      await owner.fetch("GET", `/knowledge-bases/${kb.id}/files/${file.id}/`),
    );
    expect(record).toMatchObject({ status: "failed", chunksCount: 0 });
  });
});

describe("a purge job of a deleted knowledge base", () => {
  it("removes nothing of a base whose row is still there: tried again, dropped; purges once it is gone", async () => {
    const owner = await seedOwner();
    const kb = await createKnowledgeBase(owner);
    const key = `${objectPrefixOf(kb.id)}${crypto.randomUUID()}/notes.txt`;
    await env.FILES.put(key, "Our office opens at nine.");
    const store = vectorStoreFor(env);
    await store.upsert(kb.id, [{ id: "node-1", values: [1, 0, 0, 0], type: "text_node", sourceId: "file-1" }]);
    const job: IngestionJob = {
      kind: "purge",
      knowledgeBaseId: kb.id,
      vectorIds: ["node-1"],
      objectPrefix: objectPrefixOf(kb.id),
    };
    const kept = async () => [
      (await store.query(kb.id, [1, 0, 0, 0], { topK: 5 })).length,
      (await env.FILES.head(key)) ? 1 : 0,
    ];

    // The delete that queued it has not committed (or failed): the base keeps its vectors and bytes.
    const early = await deliverJob(job, 1);
    expect([early.retryMessages.length, early.explicitAcks.length]).toEqual([1, 0]);
    const last = await deliverJob(job, 4);
    expect([last.retryMessages.length, last.explicitAcks.length]).toEqual([0, 1]);
    expect(await kept()).toEqual([1, 1]);

    await env.DB.prepare("DELETE FROM knowledge_bases WHERE id = ?").bind(kb.id).run();
    const purged = await deliverJob(job, 1);
    expect([purged.retryMessages.length, purged.explicitAcks.length]).toEqual([0, 1]);
    expect(await kept()).toEqual([0, 0]);
  });
});
