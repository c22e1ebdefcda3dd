import { matchExpression } from "../../../src/services/knowledge/retrieval/terms";
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { countRows, NO_SUCH_ID, PREFIXES, call, expectError, seedMember, seedOwner } from "../../harness";
import {
  createFaq,
  createKnowledgeBase,
  createLabel,
  ingest,
  uploadFiles,
  waitForFile,
} from "../../fixtures/knowledge";
import { makePdf } from "../../fixtures/documents";
import { bodyOf, pageOf } from "../../support/api";
import { receivedAt } from "../../support/received";
import { uploadKey } from "../attachments/support";

const nodesOf = async (fileId: string) =>
  (
    await env.DB.prepare(
      "select id, position, text, page_start as pageStart from text_nodes where file_id = ? order by position",
    )
      .bind(fileId)
      .all<{ id: string; position: number; text: string; pageStart: number }>()
  ).results;
const ftsHits = (kbId: string, term: string) =>
  countRows(env.DB, "text_nodes_fts WHERE text_nodes_fts MATCH ?", matchExpression(term, kbId));

describe("POST /knowledge-bases/{id}/files/ (multipart) and ingestion", () => {
  it.each(PREFIXES)("a text file is parsed, chunked and indexed in the background (%s)", async (prefix) => {
    const owner = await seedOwner();
    const kb = await createKnowledgeBase(owner);
    const form = new FormData();
    form.append(
      "file",
      new File(["Refunds are paid within 14 days. Shipping is free above 50 euros."], "policy.txt", {
        type: "text/plain",
      }),
    );
    const res = await owner.fetch("POST", `/knowledge-bases/${kb.id}/files/`, form, { prefix });
    expect(res.status, await res.clone().text()).toBe(201);
    const [created] = await bodyOf<"POST /knowledge-bases/{knowledgeBaseId}/files/">(res);
    expect(created).toMatchObject({ status: "initial", filename: "policy.txt", fileType: "txt", size: 65 });
    const done = await waitForFile(owner, kb.id, created.id);
    expect(done).toMatchObject({ status: "done", chunksCount: 1 });
    expect((await nodesOf(created.id))[0].text).toContain("Refunds are paid within 14 days.");
    const after = await bodyOf<"GET /knowledge-bases/{id}/">(await owner.fetch("GET", `/knowledge-bases/${kb.id}/`));
    expect(after).toMatchObject({ filesCount: 1, chunksCount: 1 });
    expect(after.vectorStorageSize).toBeGreaterThan(0);
  });

  it("takes 20 files in one request (the limit), and refuses a 21st", async () => {
    const owner = await seedOwner();
    const kb = await createKnowledgeBase(owner);
    const files = Array.from({ length: 20 }, (_, i) => ({ name: `doc-${i}.md`, content: `Document number ${i}.` }));
    const created = await uploadFiles(owner, kb.id, files);
    expect(created.map((f) => f.filename)).toEqual(files.map((f) => f.name));
    const form = new FormData();
    for (let i = 0; i < 21; i++) form.append("file", new File(["x"], `x-${i}.txt`));
    await expectError(await owner.fetch("POST", `/knowledge-bases/${kb.id}/files/`, form), 400, "invalid");
    expect(
      (
        await bodyOf<"GET /knowledge-bases/{knowledgeBaseId}/files/">(
          await owner.fetch("GET", `/knowledge-bases/${kb.id}/files/`),
        )
      ).count,
    ).toBe(20);
  });

  it("a PDF keeps its page numbers on the text nodes", async () => {
    const owner = await seedOwner();
    const kb = await createKnowledgeBase(owner);
    const pdf = await makePdf(["The cover page says nothing useful.", "The warranty lasts three years from purchase."]);
    const [file] = await ingest(owner, kb.id, [{ name: "manual.pdf", content: pdf, type: "application/pdf" }]);
    const nodes = await nodesOf(file.id);
    const warranty = nodes.find((n) => n.text.includes("warranty"))!;
    expect(warranty.pageStart).toBe(2);
  });

  it("a redelivered job and a reparse leave exactly one set of text nodes", async () => {
    const owner = await seedOwner();
    const kb = await createKnowledgeBase(owner);
    const word = `zebrafish${Date.now()}`;
    const [file] = await ingest(owner, kb.id, [
      { name: "a.md", content: `# Title\n\nThe ${word} swims. Another sentence here.` },
    ]);
    const before = await nodesOf(file.id);
    // The same job again (a redelivery): nothing changes.
    await env.INGESTION_QUEUE.send({ kind: "file", fileId: file.id, generation: 1 });
    const res = await owner.fetch("PATCH", `/knowledge-bases/${kb.id}/files/batch-reparse/`, [{ id: file.id }]);
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await bodyOf<"PATCH /knowledge-bases/{knowledgeBaseId}/files/batch-reparse/">(res))[0].status).toBe(
      "initial",
    );
    expect((await waitForFile(owner, kb.id, file.id)).status).toBe("done");
    const after = await nodesOf(file.id);
    expect(after.map((n) => n.position)).toEqual(before.map((n) => n.position));
    expect(await ftsHits(kb.id, word)).toBe(1);
  });

  it("a reparse naming a file of another knowledge base is 400 naming it, and queues none", async () => {
    const owner = await seedOwner();
    const kb = await createKnowledgeBase(owner);
    const other = await createKnowledgeBase(owner);
    const [mine] = await ingest(owner, kb.id, [{ name: "a.txt", content: "Alpha." }]);
    const [theirs] = await ingest(owner, other.id, [{ name: "b.txt", content: "Beta." }]);
    const res = await owner.fetch("PATCH", `/knowledge-bases/${kb.id}/files/batch-reparse/`, [
      { id: mine.id },
      { id: theirs.id },
    ]);
    const err = await expectError(res, 400, "invalid");
    expect(err.errors?.id?.[0]).toBe(`Not files of this knowledge base: ${theirs.id}.`);
    const after = await bodyOf<"GET /knowledge-bases/{knowledgeBaseId}/files/{fileId}/">(
      await owner.fetch("GET", `/knowledge-bases/${kb.id}/files/${mine.id}/`),
    );
    expect(after.status).toBe("done");
  });

  it("a file that cannot be parsed is failed with the reason", async () => {
    const owner = await seedOwner();
    const kb = await createKnowledgeBase(owner);
    const [file] = await uploadFiles(owner, kb.id, [
      { name: "broken.pdf", content: "this is not a pdf", type: "application/pdf" },
    ]);
    const failed = await waitForFile(owner, kb.id, file.id);
    expect(failed.status).toBe("failed");
    expect(String(failed.processingTimeDetails.error)).toMatch(/pdf/i);
  });

  it("JSON references name an upload by its key or its absolute URL (CONTRACT section 10), not another's", async () => {
    const owner = await seedOwner();
    const kb = await createKnowledgeBase(owner);
    const model = { model_name: "knowledge-base-file", field_name: "file" };
    const upload = (name: string) =>
      uploadKey(owner, name, new TextEncoder().encode(`The ${name} says hello.`), "text/plain", undefined, model);
    const byKey = await upload("by-key.txt");
    const byUrl = await upload("by-url.txt");
    const byShortUrl = await upload("by-short-url.txt");
    const files = [
      { file: byKey, filename: "by-key.txt" },
      { file: `http://localhost/api/v1/uploads/${byUrl}`, filename: "by-url.txt" },
      { file: `http://localhost/api/uploads/${encodeURI(byShortUrl)}`, filename: "by-short-url.txt" },
    ];
    const res = await owner.fetch("POST", `/knowledge-bases/${kb.id}/files/`, { files });
    expect(res.status, await res.clone().text()).toBe(201);
    const added = await bodyOf<"POST /knowledge-bases/{knowledgeBaseId}/files/">(res);
    for (const file of added) expect((await waitForFile(owner, kb.id, file.id)).status).toBe("done");
    for (const key of [byKey, byUrl, byShortUrl]) expect(await env.FILES.head(key)).toBeNull();

    const stranger = await seedOwner();
    const theirs = await uploadKey(
      stranger,
      "theirs.txt",
      new TextEncoder().encode("Private."),
      "text/plain",
      undefined,
      model,
    );
    for (const file of [theirs, `http://localhost/api/v1/uploads/${theirs}`]) {
      const refused = await owner.fetch("POST", `/knowledge-bases/${kb.id}/files/`, {
        files: [{ file, filename: "theirs.txt" }],
      });
      expect((await expectError(refused, 400, "invalid")).errors).toHaveProperty(["files.0.file"]);
    }
    expect(await env.FILES.head(theirs)).not.toBeNull();
    expect(await countRows(env.DB, "knowledge_base_files WHERE knowledge_base_id = ?", kb.id)).toBe(3);
  });

  it("an upload key names the caller's own uploads: another member's is a key of nothing, and stays", async () => {
    const owner = await seedOwner();
    const model = { model_name: "knowledge-base-file", field_name: "file" };
    const text = (words: string) => new TextEncoder().encode(words);
    // The owner's upload, not attached to anything yet (copying it would also have removed it).
    const theirs = await uploadKey(
      owner,
      "draft.txt",
      text("A draft of the price list."),
      "text/plain",
      undefined,
      model,
    );
    const manager = await seedMember(owner, ["knowledge_base.manage", "knowledge_base.view"]);
    const kb = await createKnowledgeBase(manager);
    for (const file of [theirs, `http://localhost/api/v1/uploads/${theirs}`]) {
      const res = await manager.fetch("POST", `/knowledge-bases/${kb.id}/files/`, {
        files: [{ file, filename: "a.txt" }],
      });
      const refused = await expectError(res, 400, "invalid");
      expect(refused.errors?.["files.0.file"]).toEqual(["No uploaded object with this key."]);
    }
    expect(await countRows(env.DB, "knowledge_base_files WHERE knowledge_base_id = ?", kb.id)).toBe(0);
    expect(await env.FILES.head(theirs)).not.toBeNull();
    const mine = await uploadKey(manager, "mine.txt", text("Mine."), "text/plain", undefined, model);
    const res = await manager.fetch("POST", `/knowledge-bases/${kb.id}/files/`, {
      files: [{ file: mine, filename: "mine.txt" }],
    });
    expect(res.status, await res.clone().text()).toBe(201);
  });

  it("400 for an unsupported type or no file part, nothing written; 413 over the size limit", async () => {
    const owner = await seedOwner();
    const kb = await createKnowledgeBase(owner);
    const form = new FormData();
    form.append("file", new File(["x"], "virus.exe"));
    form.append("file", new File(["fine"], "ok.txt"));
    const body = await expectError(await owner.fetch("POST", `/knowledge-bases/${kb.id}/files/`, form), 400, "invalid");
    expect(body.errors?.file?.[0]).toMatch(/Unsupported file type/);
    const empty = new FormData();
    empty.append("other", "x");
    const noFile = await expectError(
      await owner.fetch("POST", `/knowledge-bases/${kb.id}/files/`, empty),
      400,
      "invalid",
    );
    expect(noFile.errors).toEqual({ file: ["Required"] });
    await expectError(await owner.fetch("POST", `/knowledge-bases/${kb.id}/files/`, { files: [] }), 400, "invalid");
    const tabbed = { files: [{ file: "https://example.com/a.txt", filename: "Price\tlist.txt" }] };
    const named = await expectError(await owner.fetch("POST", `/knowledge-bases/${kb.id}/files/`, tabbed), 400);
    expect(named.errors?.["files.0.filename"]?.[0]).toMatch(/control characters/);
    const big = new FormData();
    big.append("file", new File([new Uint8Array(10 * 1024 * 1024 + 1).fill(97)], "big.txt"));
    await expectError(await owner.fetch("POST", `/knowledge-bases/${kb.id}/files/`, big), 413, "payload_too_large");
    const list = await pageOf<"GET /knowledge-bases/{knowledgeBaseId}/files/">(
      await owner.fetch("GET", `/knowledge-bases/${kb.id}/files/`),
    );
    expect(list.count).toBe(0);
  });

  it("a part's file name is shown on one line: its control characters become spaces", async () => {
    const owner = await seedOwner();
    const kb = await createKnowledgeBase(owner);
    const form = new FormData();
    form.append("file", new File(["Refunds within 14 days."], "dir/Price\tlist\t 2026.txt", { type: "text/plain" }));
    const res = await owner.fetch("POST", `/knowledge-bases/${kb.id}/files/`, form);
    expect(res.status, await res.clone().text()).toBe(201);
    const [created] = await bodyOf<"POST /knowledge-bases/{knowledgeBaseId}/files/">(res);
    expect(created.filename).toBe("Price list 2026.txt");
  });

  it("the deployment's allowed-file-specs apply to knowledge base files too (ALLOWED_FILE_SPECS)", async () => {
    const owner = await seedOwner();
    const kb = await createKnowledgeBase(owner);
    const settings = { ALLOWED_FILE_SPECS: JSON.stringify({ knowledgeBaseFile: { file: { max_size: 10 } } }) };
    const form = () => {
      const f = new FormData();
      f.append("file", new File(["more than ten bytes"], "notes.txt", { type: "text/plain" }));
      return f;
    };
    const body = await expectError(
      await owner.fetch("POST", `/knowledge-bases/${kb.id}/files/`, form(), { settings }),
      413,
      "payload_too_large",
    );
    expect(body.detail).toContain("at most 10 bytes");
    const list = await pageOf<"GET /knowledge-bases/{knowledgeBaseId}/files/">(
      await owner.fetch("GET", `/knowledge-bases/${kb.id}/files/`),
    );
    expect(list.count).toBe(0);
    expect((await owner.fetch("POST", `/knowledge-bases/${kb.id}/files/`, form())).status).toBe(201);
  });

  it("a file fetched by URL is read no further than the largest file taken (no Content-Length)", async () => {
    const owner = await seedOwner();
    const kb = await createKnowledgeBase(owner);
    const settings = { ALLOWED_FILE_SPECS: JSON.stringify({ knowledgeBaseFile: { file: { max_size: 100 } } }) };
    const path = `/chunked/${crypto.randomUUID()}/notes.txt`;
    const files = [{ file: `${env.TEST_RECEIVER_URL}${path}?bytes=${64 * 1024 * 1024}`, filename: "notes.txt" }];
    const res = await owner.fetch("POST", `/knowledge-bases/${kb.id}/files/`, { files }, { settings });
    expect((await expectError(res, 413, "payload_too_large")).detail).toContain("at most 100 bytes");
    // It stopped reading: the 64 MiB were not taken whole to be refused.
    const [served] = await receivedAt(path);
    expect(served.complete).toBe(false);
  });

  it("401 without a key, 403 without knowledge_base.manage, 404 for another organization's base", async () => {
    const owner = await seedOwner();
    const kb = await createKnowledgeBase(owner);
    const viewer = await seedMember(owner, ["knowledge_base.view"]);
    await owner.fetch("PATCH", `/knowledge-bases/${kb.id}/`, { groups: [{ id: viewer.groupId }] });
    const form = () => {
      const f = new FormData();
      f.append("file", new File(["hello"], "a.txt"));
      return f;
    };
    await expectError(await call("POST", `/api/v1/knowledge-bases/${kb.id}/files/`, form()), 401, "not_authenticated");
    await expectError(await viewer.fetch("POST", `/knowledge-bases/${kb.id}/files/`, form()), 403, "permission_denied");
    expect((await viewer.fetch("GET", `/knowledge-bases/${kb.id}/files/`)).status).toBe(200);
    const stranger = await seedOwner();
    await expectError(await stranger.fetch("POST", `/knowledge-bases/${kb.id}/files/`, form()), 404, "not_found");
    await expectError(await stranger.fetch("GET", `/knowledge-bases/${kb.id}/files/`), 404, "not_found");
    await expectError(await owner.fetch("GET", `/knowledge-bases/${kb.id}/files/${NO_SUCH_ID}/`), 404, "not_found");
  });
});

describe("files: metadata, delete, batch delete, download", () => {
  it("update-metadata sets labels of the knowledge base only; delete removes nodes, FTS rows and bytes", async () => {
    const owner = await seedOwner();
    const kb = await createKnowledgeBase(owner);
    const other = await createKnowledgeBase(owner);
    const label = await createLabel(owner, kb.id, "manuals");
    const foreign = await createLabel(owner, other.id, "foreign");
    const word = `okapi${Date.now()}`;
    const [file] = await ingest(owner, kb.id, [{ name: "m.txt", content: `The ${word} lives in the forest.` }]);
    const bad = await expectError(
      await owner.fetch("PATCH", `/knowledge-bases/${kb.id}/files/${file.id}/update-metadata/`, {
        labels: [{ id: foreign.id }],
      }),
      400,
    );
    expect(bad.errors?.labels).toBeTruthy();
    const res = await owner.fetch("PATCH", `/knowledge-bases/${kb.id}/files/${file.id}/update-metadata/`, {
      labels: [{ id: label.id }],
      raw_user_define_metadata: { team: "support" },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toMatchObject({
      labels: [{ id: label.id, name: "manuals" }],
      rawUserDefineMetadata: { team: "support" },
    });
    const filtered = await bodyOf<"GET /knowledge-bases/{knowledgeBaseId}/files/">(
      await owner.fetch("GET", `/knowledge-bases/${kb.id}/files/?labels=${label.id}`),
    );
    expect(filtered.count).toBe(1);
    const download = await owner.fetch("GET", `/knowledge-bases/${kb.id}/files/${file.id}/download/`);
    expect(await download.text()).toBe(`The ${word} lives in the forest.`);
    expect(await ftsHits(kb.id, word)).toBe(1);
    expect((await owner.fetch("DELETE", `/knowledge-bases/${kb.id}/files/${file.id}/`)).status).toBe(204);
    expect(await ftsHits(kb.id, word)).toBe(0);
    expect(await nodesOf(file.id)).toHaveLength(0);
    await expectError(await owner.fetch("GET", `/knowledge-bases/${kb.id}/files/${file.id}/`), 404);
  });

  it("update-metadata takes up to 100 labels (more than one INSERT's worth of D1 parameters)", async () => {
    const owner = await seedOwner();
    const kb = await createKnowledgeBase(owner);
    const labels = await Promise.all(
      Array.from({ length: 60 }, (_, i) => createLabel(owner, kb.id, `l-${String(i).padStart(2, "0")}`)),
    );
    const [file] = await uploadFiles(owner, kb.id, [{ name: "many.txt", content: "Labelled many times." }]);
    const res = await owner.fetch("PATCH", `/knowledge-bases/${kb.id}/files/${file.id}/update-metadata/`, {
      labels: labels.map(({ id }) => ({ id })),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(
      (await bodyOf<"PATCH /knowledge-bases/{knowledgeBaseId}/files/{fileId}/update-metadata/">(res)).labels,
    ).toHaveLength(60);
  });

  it("the list's `labels` takes repeated keys and commas, as the FAQ list does; no label ids: no filter", async () => {
    const owner = await seedOwner();
    const kb = await createKnowledgeBase(owner);
    const [one, two, unused] = [
      await createLabel(owner, kb.id),
      await createLabel(owner, kb.id),
      await createLabel(owner, kb.id),
    ];
    const [a, b] = await uploadFiles(owner, kb.id, [
      { name: "a.txt", content: "one" },
      { name: "b.txt", content: "two" },
    ]);
    await uploadFiles(owner, kb.id, [{ name: "c.txt", content: "none" }]);
    await owner.fetch("PATCH", `/knowledge-bases/${kb.id}/files/${a.id}/update-metadata/`, {
      labels: [{ id: one.id }],
    });
    await owner.fetch("PATCH", `/knowledge-bases/${kb.id}/files/${b.id}/update-metadata/`, {
      labels: [{ id: two.id }],
    });
    for (const [id, label] of [
      ["a", one],
      ["b", two],
    ] as const)
      await createFaq(owner, kb.id, { question: `${id}?`, answer: id, labels: [{ id: label.id }] });
    await createFaq(owner, kb.id, { question: "c?", answer: "c" });
    const counts = async (query: string) => {
      const [files, faqs] = await Promise.all(
        ["files", "faqs"].map(async (list) => {
          const res = await owner.fetch("GET", `/knowledge-bases/${kb.id}/${list}/${query}`);
          expect(res.status, await res.clone().text()).toBe(200);
          return (await res.json<{ count: number }>()).count;
        }),
      );
      return { files, faqs };
    };
    expect(await counts(`?labels=${one.id}&labels=${two.id}`)).toEqual({ files: 2, faqs: 2 });
    expect(await counts(`?labels=${one.id},${two.id}`)).toEqual({ files: 2, faqs: 2 });
    expect(await counts(`?labels=${unused.id}`)).toEqual({ files: 0, faqs: 0 });
    for (const none of ["?labels=", "?labels=,", "?labels=,&labels="])
      expect(await counts(none), none).toEqual({ files: 3, faqs: 3 });
    // A label that is no id names itself: it read as an empty list.
    for (const list of ["files", "faqs"]) {
      const res = await owner.fetch("GET", `/knowledge-bases/${kb.id}/${list}/?labels=${one.id},billing`);
      expect((await expectError(res, 400, "invalid")).errors).toEqual({ labels: ["Not an id: billing"] });
    }
  });

  it("batch-delete removes this knowledge base's files; an id of no file of it is 400 and deletes none", async () => {
    const owner = await seedOwner();
    const kb = await createKnowledgeBase(owner);
    const other = await createKnowledgeBase(owner);
    const [a, b] = await ingest(owner, kb.id, [
      { name: "a.txt", content: "Alpha." },
      { name: "b.txt", content: "Beta." },
    ]);
    const [c] = await ingest(owner, other.id, [{ name: "c.txt", content: "Gamma." }]);
    const batchDelete = (ids: string[]) =>
      owner.fetch("POST", `/knowledge-bases/${kb.id}/files/batch-delete/`, { ids });
    await expectError(await batchDelete(["nope"]), 400, "invalid");
    for (const ids of [
      [a.id, c.id],
      [a.id, NO_SUCH_ID],
    ]) {
      const err = await expectError(await batchDelete(ids), 400, "invalid");
      expect(err.errors?.ids?.[0]).toBe(`Not files of this knowledge base: ${ids[1]}.`);
    }
    const files = await pageOf<"GET /knowledge-bases/{knowledgeBaseId}/files/">(
      await owner.fetch("GET", `/knowledge-bases/${kb.id}/files/`),
    );
    expect(files.count).toBe(2);
    expect((await batchDelete([a.id])).status).toBe(204);
    const left = await bodyOf<"GET /knowledge-bases/{knowledgeBaseId}/files/">(
      await owner.fetch("GET", `/knowledge-bases/${kb.id}/files/`),
    );
    expect(left.results.map((f) => f.id)).toEqual([b.id]);
    expect((await owner.fetch("GET", `/knowledge-bases/${other.id}/files/${c.id}/`)).status).toBe(200);
  });
});
