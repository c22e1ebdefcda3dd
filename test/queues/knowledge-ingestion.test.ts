import { env } from "cloudflare:workers";
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import worker from "../../src/index";
import { knowledgeBaseFiles } from "../../src/db/schema";
import { db, seedOwner, unique } from "../harness";
import { upstreamModel } from "../routes/chat-completions/fixtures";
import { createKnowledgeBase, uploadFiles } from "../fixtures/knowledge";
import { bodyOf } from "../support/api";

/** Runs the queue consumer on one ingestion job delivered for the `attempts`-th time. */
async function deliver(fileId: string, generation: number, attempts: number) {
  const batch = createMessageBatch("knowledge-ingestion", [
    { id: unique("delivery"), timestamp: new Date(), attempts, body: { kind: "file", fileId, generation } },
  ]);
  const ctx = createExecutionContext();
  await worker.queue!(batch, env, ctx);
  return getQueueResult(batch, ctx);
}

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
