import { eq } from "drizzle-orm";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { knowledgeBaseFiles, knowledgeBases } from "../../../src/db/schema";
import { readCredentials } from "../../../src/services/knowledge/vector-database";
import { ingestFile } from "../../../src/services/knowledge/ingestion";
import {
  NO_SUCH_ID,
  PREFIXES,
  bindingsWith,
  call,
  db,
  expectError,
  seedMember,
  seedOwner,
  type Actor,
} from "../../harness";
import { expectInvalid } from "../../support/refusals";
import { LOCAL_EMBEDDING, LOCAL_RERANKER, createChatbot } from "../../fixtures/chatbots";
import { allowCustomElasticsearch, createFaq, createKnowledgeBase, ingest } from "../../fixtures/knowledge";
import { createGroup } from "../groups/helpers";
import { bodyOf } from "../../support/api";
import { standIn } from "../../support/bindings";

const WORKERS_EMBEDDING = "00000000-0000-7000-8000-000000000012";
const WORKERS_RERANKER = "00000000-0000-7000-8000-000000000013";

async function ok(res: Response) {
  expect(res.status, await res.clone().text()).toBe(200);
  return bodyOf<"GET /knowledge-bases/{id}/">(res);
}

const get = async (actor: Actor, id: string) => ok(await actor.fetch("GET", `/knowledge-bases/${id}/`));
/** The credentials as stored (sealed), decrypted with the test key. */
const storedSecrets = async (id: string) =>
  readCredentials((await db().select().from(knowledgeBases).where(eq(knowledgeBases.id, id)))[0], env);

describe("PUT and PATCH /knowledge-bases/{id}/", () => {
  it.each(PREFIXES)("PUT sets what it is given; the rest keeps its value (%s)", async (prefix) => {
    const owner = await seedOwner();
    const kb = await createKnowledgeBase(owner, { description: "old", numberOfRetrievedChunks: 4, enableHyde: true });
    const body = {
      name: "Renamed",
      embeddingModel: WORKERS_EMBEDDING,
      rerankerModel: WORKERS_RERANKER,
      sentenceWindowSize: 5,
      similarityCutoff: 0.5,
    };
    const updated = await ok(await owner.fetch("PUT", `/knowledge-bases/${kb.id}/`, body, { prefix }));
    expect(updated).toMatchObject({
      id: kb.id,
      name: "Renamed",
      description: "old",
      embeddingModel: { id: WORKERS_EMBEDDING, name: "Workers AI BGE M3" },
      rerankerModel: { id: WORKERS_RERANKER, name: "Workers AI BGE Reranker" },
      numberOfRetrievedChunks: 4,
      sentenceWindowSize: 5,
      similarityCutoff: 0.5,
      enableHyde: true,
      enableRerank: true,
      createdAt: kb.createdAt,
    });
    expect(Number(updated.updatedAt)).toBeGreaterThanOrEqual(Number(kb.updatedAt));
    expect(await get(owner, kb.id)).toEqual(updated);
  });

  it("PATCH changes only the fields it is given", async () => {
    const owner = await seedOwner();
    const kb = await createKnowledgeBase(owner, { description: "keep me", sentenceWindowSize: 3 });
    const patched = await ok(
      await owner.fetch("PATCH", `/knowledge-bases/${kb.id}/`, {
        enableRerank: false,
        enableRrf: false,
        numberOfRetrievedChunks: 30,
      }),
    );
    const { updatedAt: _a, ...rest } = kb;
    expect(patched).toMatchObject({ ...rest, enableRerank: false, enableRrf: false, numberOfRetrievedChunks: 30 });
    const renamed = await ok(
      await owner.fetch("PATCH", `/knowledge-bases/${kb.id}/`, { name: "Only the name", description: null }),
    );
    expect(renamed).toMatchObject({
      name: "Only the name",
      description: "",
      sentenceWindowSize: 3,
      enableRerank: false,
      numberOfRetrievedChunks: 30,
    });
    const rrfDefault = await ok(await owner.fetch("PATCH", `/knowledge-bases/${kb.id}/`, { enableRrf: null }));
    expect(rrfDefault.enableRrf).toBe(true);
  });

  it.each<[string, Record<string, unknown>, string[]]>([
    ["PUT", { description: "x" }, ["embeddingModel", "name", "rerankerModel"]],
    ["PUT", { name: "x", embeddingModel: LOCAL_EMBEDDING }, ["rerankerModel"]],
    ["PATCH", { name: "" }, ["name"]],
    ["PATCH", { rerankerModel: LOCAL_EMBEDDING }, ["rerankerModel"]],
    ["PATCH", { numberOfRetrievedChunks: 0 }, ["numberOfRetrievedChunks"]],
    ["PATCH", { similarityCutoff: -0.1 }, ["similarityCutoff"]],
    [
      "PATCH",
      { vectorDatabaseType: "opensearch", vectorDatabaseUrl: "https://os.example.com" },
      ["opensearchUsername"],
    ],
    ["PATCH", { groups: [{ id: NO_SUCH_ID }] }, ["groups"]],
  ])("%s %j is a 400 naming %j and changes nothing", async (method, body, fields) => {
    const owner = await seedOwner();
    const kb = await createKnowledgeBase(owner);
    const err = await expectError(await owner.fetch(method, `/knowledge-bases/${kb.id}/`, body), 400, "invalid");
    expect(Object.keys(err.errors!).sort()).toEqual(fields);
    expect(await get(owner, kb.id)).toEqual(kb);
  });

  it("store credentials: a string replaces, null clears, absent keeps; never returned", async () => {
    const owner = await seedOwner();
    await allowCustomElasticsearch(owner.organizationId);
    const kb = await createKnowledgeBase(owner, {
      vectorDatabaseType: "opensearch",
      vectorDatabaseUrl: "https://os.example.com",
      opensearchUsername: "admin",
      opensearchPassword: "first-secret",
    });
    expect(await storedSecrets(kb.id)).toEqual({ opensearchUsername: "admin", opensearchPassword: "first-secret" });

    const kept = await owner.fetch("PATCH", `/knowledge-bases/${kb.id}/`, { name: "renamed" });
    expect((await ok(kept.clone())).storedCredentials.sort()).toEqual(["opensearchPassword", "opensearchUsername"]);
    expect(await storedSecrets(kb.id)).toEqual({ opensearchUsername: "admin", opensearchPassword: "first-secret" });

    const replaced = await owner.fetch("PATCH", `/knowledge-bases/${kb.id}/`, { opensearchPassword: "second-secret" });
    const text = await replaced.clone().text();
    expect(text).not.toContain("second-secret");
    expect((await ok(replaced)).storedCredentials.sort()).toEqual(["opensearchPassword", "opensearchUsername"]);
    expect(await storedSecrets(kb.id)).toEqual({ opensearchUsername: "admin", opensearchPassword: "second-secret" });

    // OpenSearch needs its password: clearing it alone is refused and keeps the stored one.
    await expectInvalid(
      await owner.fetch("PATCH", `/knowledge-bases/${kb.id}/`, { opensearchPassword: null }),
      "opensearchPassword",
    );
    expect(await storedSecrets(kb.id)).toEqual({ opensearchUsername: "admin", opensearchPassword: "second-secret" });

    // Elasticsearch's API key is optional: null clears it.
    const es = await ok(
      await owner.fetch("PATCH", `/knowledge-bases/${kb.id}/`, {
        vectorDatabaseType: "elasticsearch",
        vectorDatabaseUrl: "https://es.example.com",
        vectorDatabaseApiKey: "es-key",
      }),
    );
    expect(es).toMatchObject({
      vectorDatabaseType: "elasticsearch",
      vectorDatabaseUrl: "https://es.example.com",
      storedCredentials: ["vectorDatabaseApiKey"],
    });
    expect(await storedSecrets(kb.id)).toEqual({ vectorDatabaseApiKey: "es-key" });
    const cleared = await ok(await owner.fetch("PATCH", `/knowledge-bases/${kb.id}/`, { vectorDatabaseApiKey: null }));
    expect(cleared).toMatchObject({ vectorDatabaseType: "elasticsearch", storedCredentials: [] });
    expect(await storedSecrets(kb.id)).toEqual({});

    // Back to the platform's store: type null alone drops the URL too; a URL with no type is refused.
    await expectInvalid(
      await owner.fetch("PATCH", `/knowledge-bases/${kb.id}/`, {
        vectorDatabaseType: null,
        vectorDatabaseUrl: "https://es.example.com",
      }),
      "vectorDatabaseUrl",
    );
    const platform = await ok(await owner.fetch("PATCH", `/knowledge-bases/${kb.id}/`, { vectorDatabaseType: null }));
    expect(platform).toMatchObject({ vectorDatabaseType: null, vectorDatabaseUrl: null, storedCredentials: [] });
    expect(await get(owner, kb.id)).toEqual(platform);
  });

  it("setting up Elasticsearch or OpenSearch needs canUseCustomElasticsearch (403, nothing changed)", async () => {
    const owner = await seedOwner();
    const kb = await createKnowledgeBase(owner);
    for (const [method, body] of [
      ["PATCH", { vectorDatabaseType: "elasticsearch", vectorDatabaseUrl: "https://es.example.com" }],
      [
        "PUT",
        {
          name: kb.name,
          embeddingModel: LOCAL_EMBEDDING,
          rerankerModel: LOCAL_RERANKER,
          vectorDatabaseType: "opensearch",
          vectorDatabaseUrl: "https://os.example.com",
          opensearchUsername: "u",
          opensearchPassword: "p",
        },
      ],
    ] as const) {
      const err = await expectError(
        await owner.fetch(method, `/knowledge-bases/${kb.id}/`, body),
        403,
        "permission_denied",
      );
      expect(err.detail).toContain("canUseCustomElasticsearch");
      expect(await get(owner, kb.id)).toEqual(kb);
    }

    // One set up while the flag was on keeps working after it is switched off: it can be renamed or moved back to
    // the platform's store, but its store cannot be changed.
    await allowCustomElasticsearch(owner.organizationId);
    const es = await createKnowledgeBase(owner, {
      vectorDatabaseType: "elasticsearch",
      vectorDatabaseUrl: "https://es.example.com",
    });
    await allowCustomElasticsearch(owner.organizationId, false);
    const renamed = await ok(
      await owner.fetch("PUT", `/knowledge-bases/${es.id}/`, {
        name: "renamed",
        embeddingModel: LOCAL_EMBEDDING,
        rerankerModel: LOCAL_RERANKER,
        vectorDatabaseType: "elasticsearch",
        vectorDatabaseUrl: "https://es.example.com",
      }),
    );
    expect(renamed).toMatchObject({ name: "renamed", vectorDatabaseType: "elasticsearch" });
    for (const body of [{ vectorDatabaseUrl: "https://other.example.com" }, { vectorDatabaseApiKey: "k" }])
      await expectError(await owner.fetch("PATCH", `/knowledge-bases/${es.id}/`, body), 403, "permission_denied");
    expect(await get(owner, es.id)).toEqual(renamed);
    expect(
      await ok(await owner.fetch("PATCH", `/knowledge-bases/${es.id}/`, { vectorDatabaseType: null })),
    ).toMatchObject({ vectorDatabaseType: null });
  });

  it("the embedding model can change while empty, not once files or FAQs are indexed", async () => {
    const owner = await seedOwner();
    const empty = await createKnowledgeBase(owner);
    expect(
      (await ok(await owner.fetch("PATCH", `/knowledge-bases/${empty.id}/`, { embeddingModel: WORKERS_EMBEDDING })))
        .embeddingModel.id,
    ).toBe(WORKERS_EMBEDDING);
    expect(
      (await ok(await owner.fetch("PATCH", `/knowledge-bases/${empty.id}/`, { embeddingModel: LOCAL_EMBEDDING })))
        .embeddingModel.id,
    ).toBe(LOCAL_EMBEDDING);

    const withFile = await createKnowledgeBase(owner);
    await ingest(owner, withFile.id, [
      { name: "a.txt", content: "The warranty lasts three years.", type: "text/plain" },
    ]);
    const put = { name: "x", embeddingModel: WORKERS_EMBEDDING, rerankerModel: LOCAL_RERANKER };
    await expectInvalid(await owner.fetch("PUT", `/knowledge-bases/${withFile.id}/`, put), "embeddingModel");
    const after = await get(owner, withFile.id);
    expect(after).toMatchObject({ name: withFile.name, embeddingModel: { id: LOCAL_EMBEDDING }, chunksCount: 1 });
    // Naming the same model again is fine.
    expect(
      (
        await ok(
          await owner.fetch("PUT", `/knowledge-bases/${withFile.id}/`, { ...put, embeddingModel: LOCAL_EMBEDDING }),
        )
      ).name,
    ).toBe("x");

    const withFaq = await createKnowledgeBase(owner);
    await createFaq(owner, withFaq.id, { question: "Q?", answer: "A." });
    await expectInvalid(
      await owner.fetch("PATCH", `/knowledge-bases/${withFaq.id}/`, { embeddingModel: WORKERS_EMBEDDING }),
      "embeddingModel",
    );
    expect((await get(owner, withFaq.id)).embeddingModel.id).toBe(LOCAL_EMBEDDING);
  });

  it("the embedding model cannot change while a file is queued or ingested (the old model's passages)", async () => {
    const owner = await seedOwner();
    const kb = await createKnowledgeBase(owner);
    const form = new FormData();
    form.append("file", new File(["The warranty lasts three years."], "a.txt", { type: "text/plain" }));
    // The file's job is held: this test runs its ingestion.
    const held = standIn("INGESTION_QUEUE", { send: async () => {}, sendBatch: async () => {} });
    const res = await owner.fetch("POST", `/knowledge-bases/${kb.id}/files/`, form, {
      settings: { INGESTION_QUEUE: held },
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const [file] = await bodyOf<"POST /knowledge-bases/{knowledgeBaseId}/files/">(res);
    const change = () => owner.fetch("PATCH", `/knowledge-bases/${kb.id}/`, { embeddingModel: WORKERS_EMBEDDING });
    await expectInvalid(await change(), "embeddingModel");
    // The ingestion has read the base's model when the change comes (it reads the file's bytes next).
    let during: Response | undefined;
    const files = standIn("FILES", {
      get: async (key: string) => {
        during ??= await change();
        return env.FILES.get(key);
      },
    });
    const [row] = await db().select().from(knowledgeBaseFiles).where(eq(knowledgeBaseFiles.id, file.id));
    await ingestFile(bindingsWith({ FILES: files }), db(), file.id, row.generation, { attempt: 1, isLast: true });
    expect(during).toBeDefined();
    await expectInvalid(during!, "embeddingModel");
    expect(await get(owner, kb.id)).toMatchObject({ embeddingModel: { id: LOCAL_EMBEDDING }, chunksCount: 1 });
  });

  it("groups and chatbots, when given, replace the lists", async () => {
    const owner = await seedOwner();
    const [a, b, c] = [await createGroup(owner), await createGroup(owner), await createGroup(owner)];
    const bot = await createChatbot(owner);
    const kb = await createKnowledgeBase(owner, { groups: [{ id: a.id }, { id: b.id }], chatbots: [{ id: bot.id }] });
    const patched = await ok(
      await owner.fetch("PATCH", `/knowledge-bases/${kb.id}/`, { groups: [{ id: b.id }, { id: c.id }] }),
    );
    expect(patched.groups.map((g) => g.id).sort()).toEqual([b.id, c.id].sort());
    expect(patched.chatbots).toEqual([{ id: bot.id, name: bot.name }]);
    const emptied = await ok(await owner.fetch("PATCH", `/knowledge-bases/${kb.id}/`, { groups: [], chatbots: [] }));
    expect(emptied).toMatchObject({ groups: [], chatbots: [] });
    expect(
      (await bodyOf<"GET /chatbots/{id}/">(await owner.fetch("GET", `/chatbots/${bot.id}/`))).knowledgeBases,
    ).toEqual([]);
  });

  it("a non-owner manager may keep the groups it has and add their own, not others", async () => {
    const owner = await seedOwner();
    const manager = await seedMember(owner, ["knowledge_base.manage"]);
    const foreign = await createGroup(owner);
    const other = await createGroup(owner);
    const kb = await createKnowledgeBase(owner, { groups: [{ id: manager.groupId }, { id: foreign.id }] });
    await expectError(
      await manager.fetch("PATCH", `/knowledge-bases/${kb.id}/`, {
        groups: [{ id: manager.groupId }, { id: other.id }],
      }),
      403,
      "permission_denied",
    );
    expect((await get(owner, kb.id)).groups.map((g) => g.id).sort()).toEqual([manager.groupId, foreign.id].sort());
    const kept = await ok(
      await manager.fetch("PATCH", `/knowledge-bases/${kb.id}/`, {
        groups: [{ id: foreign.id }, { id: manager.groupId }],
      }),
    );
    expect(kept.groups.map((g) => g.id).sort()).toEqual([manager.groupId, foreign.id].sort());
  });

  it("chatbots replaces only the assistants the caller can see, and changing them needs chatbot.manage", async () => {
    const owner = await seedOwner();
    const manager = await seedMember(owner, ["knowledge_base.manage", "chatbot.manage"]);
    const kbOnly = await seedMember(owner, ["knowledge_base.manage", "chatbot.view"]);
    const shared = await createChatbot(owner, { groups: [{ id: kbOnly.groupId }] });
    const hidden = await createChatbot(owner);
    const mine = await createChatbot(manager);
    const kb = await createKnowledgeBase(owner, {
      groups: [{ id: manager.groupId }, { id: kbOnly.groupId }],
      chatbots: [{ id: shared.id }, { id: hidden.id }, { id: mine.id }],
    });
    const path = `/knowledge-bases/${kb.id}/`;
    const linked = async () => (await get(owner, kb.id)).chatbots.map((b) => b.id).sort();
    const all = [shared.id, hidden.id, mine.id].sort();

    // Without chatbot.manage: removing an assistant it sees is refused, and nothing changes.
    await expectError(await kbOnly.fetch("PATCH", path, { chatbots: [] }), 403, "permission_denied");
    expect(await linked()).toEqual(all);
    // It is shown the assistants it sees, and sending that list back is no change, so it passes.
    const seen = await get(kbOnly, kb.id);
    expect(seen.chatbots).toEqual([{ id: shared.id, name: shared.name }]);
    await ok(
      await kbOnly.fetch("PATCH", path, { chatbots: seen.chatbots.map((b) => ({ id: b.id })), name: "Renamed" }),
    );
    expect(await linked()).toEqual(all);
    // With chatbot.manage, emptying the list removes only the assistants the manager sees.
    await ok(await manager.fetch("PATCH", path, { chatbots: [] }));
    expect(await linked()).toEqual([shared.id, hidden.id].sort());
  });

  it("403 for a viewer; 404 for another organization and a malformed id; 401; nothing changes", async () => {
    const owner = await seedOwner();
    const viewer = await seedMember(owner, ["knowledge_base.view"]);
    const kb = await createKnowledgeBase(owner, { groups: [{ id: viewer.groupId }] });
    const path = `/knowledge-bases/${kb.id}/`;
    const full = { name: "x", embeddingModel: LOCAL_EMBEDDING, rerankerModel: LOCAL_RERANKER };
    await expectError(await viewer.fetch("PATCH", path, { name: "x" }), 403, "permission_denied");
    await expectError(await viewer.fetch("PUT", path, full), 403, "permission_denied");
    await expectError(await (await seedOwner()).fetch("PATCH", path, { name: "x" }), 404, "not_found");
    await expectError(await (await seedOwner()).fetch("PUT", path, full), 404, "not_found");
    await expectError(await owner.fetch("PATCH", "/knowledge-bases/nope/", { name: "x" }), 404, "not_found");
    await expectError(await call("PATCH", `/api/v1${path}`, { name: "x" }), 401, "not_authenticated");
    await expectError(await call("PUT", `/api${path}`, full), 401, "not_authenticated");
    expect(await get(owner, kb.id)).toEqual(kb);
  });
});
