import { env } from "cloudflare:workers";
import { matchExpression } from "../../../src/services/knowledge/retrieval/terms";
import { describe, expect, it } from "vitest";
import { countRows, PREFIXES, call, expectError, seedMember, seedOwner, waitFor } from "../../harness";
import { expectDenied, expectNotFound } from "../../support/refusals";
import { createChatbot } from "../../fixtures/chatbots";
import { createFaq, createKnowledgeBase, createLabel, ingest } from "../../fixtures/knowledge";
import { bodyOf } from "../../support/api";
import { objectsUnder } from "../../support/upload-bytes";
import { objectPrefixOf } from "../../../src/services/knowledge/content";
import { vectorStoreFor } from "../../../src/services/knowledge/vector-store";

const rowsOf = (table: string, kbId: string) => countRows(env.DB, `${table} WHERE knowledge_base_id = ?`, kbId);
/** FTS rows of the knowledge base (its term prefix, src/services/knowledge/retrieval/terms.ts) holding `term`. */
const ftsRows = (table: "text_nodes_fts" | "faqs_fts", kbId: string, term: string) =>
  countRows(env.DB, `${table} WHERE ${table} MATCH ?`, matchExpression(term, kbId));

describe("DELETE /knowledge-bases/{id}/", () => {
  it.each(PREFIXES)("204; its files, text nodes, FAQs, labels and index rows are gone at once (%s)", async (prefix) => {
    const owner = await seedOwner();
    const word = `zebrafish${Date.now()}`;
    const kb = await createKnowledgeBase(owner);
    const keep = await createKnowledgeBase(owner);
    for (const id of [kb.id, keep.id]) {
      await ingest(owner, id, [
        { name: "a.txt", content: `The ${word} swims in the pond. It eats small insects.`, type: "text/plain" },
      ]);
      await createFaq(owner, id, { question: `Where does the ${word} live?`, answer: "In the pond." });
      await createLabel(owner, id);
    }
    expect(await rowsOf("text_nodes", kb.id)).toBeGreaterThan(0);
    expect(await rowsOf("knowledge_base_files", kb.id)).toBe(1);
    expect(await rowsOf("faqs", kb.id)).toBe(1);
    expect(await ftsRows("text_nodes_fts", kb.id, word)).toBeGreaterThan(0);
    expect(await ftsRows("faqs_fts", kb.id, word)).toBe(1);

    const res = await owner.fetch("DELETE", `/knowledge-bases/${kb.id}/`, undefined, { prefix });
    expect(res.status, await res.clone().text()).toBe(204);
    expect(await res.text()).toBe("");

    for (const table of [
      "text_nodes",
      "knowledge_base_files",
      "faqs",
      "knowledge_base_labels",
      "knowledge_base_groups",
      "chatbot_knowledge_bases",
    ]) {
      expect(await rowsOf(table, kb.id), table).toBe(0);
    }
    expect(await env.DB.prepare("SELECT count(*) AS n FROM knowledge_bases WHERE id = ?").bind(kb.id).first("n")).toBe(
      0,
    );
    expect(await ftsRows("text_nodes_fts", kb.id, word)).toBe(0);
    expect(await ftsRows("faqs_fts", kb.id, word)).toBe(0);
    await expectNotFound(await owner.fetch("GET", `/knowledge-bases/${kb.id}/`));
    await expectNotFound(await owner.fetch("POST", `/knowledge-bases/${kb.id}/search/`, { query: word }));
    await expectNotFound(await owner.fetch("DELETE", `/knowledge-bases/${kb.id}/`, undefined, { prefix }));

    // The other knowledge base keeps all of its content.
    expect(await rowsOf("text_nodes", keep.id)).toBeGreaterThan(0);
    expect(await rowsOf("faqs", keep.id)).toBe(1);
    expect(await ftsRows("text_nodes_fts", keep.id, word)).toBeGreaterThan(0);
    const listed = await bodyOf<"GET /knowledge-bases/">(await owner.fetch("GET", "/knowledge-bases/"));
    expect(listed.results.map((k) => k.id)).toEqual([keep.id]);
  });

  it("a knowledge base of 10,000 passages: 204, then its vectors and stored files are purged", async () => {
    const owner = await seedOwner();
    const kb = await createKnowledgeBase(owner);
    const fileId = crypto.randomUUID();
    const key = `${objectPrefixOf(kb.id)}${fileId}/big.txt`;
    await env.FILES.put(key, "Seven thousand passages.");
    const now = Date.now();
    await env.DB.prepare(
      "INSERT INTO knowledge_base_files (id, knowledge_base_id, filename, object_key, file_type, size, status, " +
        "queued_at, created_at, updated_at) VALUES (?1, ?2, 'big.txt', ?3, 'txt', 24, 'done', ?4, ?4, ?4)",
    )
      .bind(fileId, kb.id, key, now)
      .run();
    // Ids as long as a UUID's: the purge jobs' size is what the queue limits.
    await env.DB.prepare(
      "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000) " +
        "INSERT INTO text_nodes (id, knowledge_base_id, file_id, position, text, start_char_idx, end_char_idx, " +
        "created_at, updated_at) SELECT printf('%s-%012d', substr(?2, 1, 23), i), ?1, ?2, i, 'Passage ' || i, 0, 9, " +
        "?3, ?3 FROM n",
    )
      .bind(kb.id, fileId, now)
      .run();
    const store = vectorStoreFor(env);
    const nodeId = (i: number) => `${fileId.slice(0, 23)}-${String(i).padStart(12, "0")}`;
    await store.upsert(kb.id, [
      { id: nodeId(1), values: [1, 0, 0, 0], type: "text_node", sourceId: fileId },
      { id: nodeId(10000), values: [0, 1, 0, 0], type: "text_node", sourceId: fileId },
    ]);
    expect(await rowsOf("text_nodes", kb.id)).toBe(10000);
    expect((await store.query(kb.id, [1, 1, 0, 0], { topK: 5 })).length).toBe(2);

    const res = await owner.fetch("DELETE", `/knowledge-bases/${kb.id}/`);
    expect(res.status, await res.clone().text()).toBe(204);
    expect(await rowsOf("text_nodes", kb.id)).toBe(0);
    const left = await waitFor(
      async () => [(await store.query(kb.id, [1, 1, 0, 0], { topK: 5 })).length, (await objectsUnder(key)).length],
      ([vectors, objects]) => vectors + objects === 0,
      20_000,
    );
    expect(left).toEqual([0, 0]);
  });

  it("the assistant linked to it no longer lists it", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const kb = await createKnowledgeBase(owner, { chatbots: [{ id: bot.id }] });
    const other = await createKnowledgeBase(owner, { chatbots: [{ id: bot.id }] });
    const before = await bodyOf<"GET /chatbots/{id}/">(await owner.fetch("GET", `/chatbots/${bot.id}/`));
    expect(before.knowledgeBases.map((k) => k.id).sort()).toEqual([kb.id, other.id].sort());
    expect((await owner.fetch("DELETE", `/knowledge-bases/${kb.id}/`)).status).toBe(204);
    const after = await bodyOf<"GET /chatbots/{id}/">(await owner.fetch("GET", `/chatbots/${bot.id}/`));
    expect(after.knowledgeBases).toEqual([{ id: other.id, name: other.name }]);
  });

  it(
    "403 for a viewer; 404 for another organization, a manager who cannot see it and a malformed id; 401; " +
      "nothing is deleted",
    async () => {
      const owner = await seedOwner();
      const viewer = await seedMember(owner, ["knowledge_base.view"]);
      const outsider = await seedMember(owner, ["knowledge_base.manage"]);
      const kb = await createKnowledgeBase(owner, { groups: [{ id: viewer.groupId }] });
      await createFaq(owner, kb.id, { question: "Q?", answer: "A." });
      const path = `/knowledge-bases/${kb.id}/`;
      await expectDenied(await viewer.fetch("DELETE", path));
      await expectNotFound(await outsider.fetch("DELETE", path));
      await expectNotFound(await (await seedOwner()).fetch("DELETE", path));
      await expectNotFound(await owner.fetch("DELETE", "/knowledge-bases/not-a-uuid/"));
      await expectError(await call("DELETE", `/api/v1${path}`), 401, "not_authenticated");
      await expectError(await call("DELETE", `/api${path}`), 401, "not_authenticated");
      const still = await bodyOf<"GET /knowledge-bases/{id}/">(await owner.fetch("GET", path));
      expect(still).toMatchObject({ id: kb.id, chunksCount: 1 });
      expect(await rowsOf("faqs", kb.id)).toBe(1);
    },
  );

  it("a manager may delete one of their groups' knowledge bases", async () => {
    const owner = await seedOwner();
    const manager = await seedMember(owner, ["knowledge_base.manage"]);
    const kb = await createKnowledgeBase(owner, { groups: [{ id: manager.groupId }] });
    expect((await manager.fetch("DELETE", `/knowledge-bases/${kb.id}/`)).status).toBe(204);
    await expectNotFound(await owner.fetch("GET", `/knowledge-bases/${kb.id}/`));
  });
});
