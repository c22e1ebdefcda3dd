import { describe, expect, it } from "vitest";
import { NO_SUCH_ID, PREFIXES, call, expectError, seedMember, seedOwner, unique, type Actor } from "../../harness";
import { expectDenied, expectInvalid } from "../../support/refusals";
import { LOCAL_EMBEDDING, LOCAL_LLM, LOCAL_RERANKER, createChatbot } from "../../fixtures/chatbots";
import { allowCustomElasticsearch, createKnowledgeBase } from "../../fixtures/knowledge";
import { bodyOf, type Operation } from "../../support/api";
import { createGroup } from "../groups/helpers";

const WORKERS_EMBEDDING = "00000000-0000-7000-8000-000000000012";
const WORKERS_RERANKER = "00000000-0000-7000-8000-000000000013";

async function ok<K extends Operation = "GET /knowledge-bases/{id}/">(res: Response, status = 200) {
  expect(res.status, await res.clone().text()).toBe(status);
  return bodyOf<K>(res);
}

const countOf = async (actor: Actor) =>
  (await ok<"GET /knowledge-bases/">(await actor.fetch("GET", "/knowledge-bases/"))).count;
const base = (extra: Record<string, unknown> = {}) => ({
  name: unique("kb"),
  embeddingModel: LOCAL_EMBEDDING,
  rerankerModel: LOCAL_RERANKER,
  ...extra,
});

describe("POST /knowledge-bases/", () => {
  it.each(PREFIXES)("creates a knowledge base with every default of the spec under %s", async (prefix) => {
    const owner = await seedOwner();
    const name = unique("Help centre");
    const kb = await ok<"POST /knowledge-bases/">(
      await owner.fetch(
        "POST",
        "/knowledge-bases/",
        { name, embeddingModel: LOCAL_EMBEDDING, rerankerModel: LOCAL_RERANKER },
        { prefix },
      ),
      201,
    );
    expect(kb).toMatchObject({
      name,
      description: "",
      organization: owner.organizationId,
      createdBy: { id: owner.userId, name: "owner" },
      embeddingModel: { id: LOCAL_EMBEDDING, name: "Local Embedding" },
      rerankerModel: { id: LOCAL_RERANKER, name: "Local Reranker" },
      numberOfRetrievedChunks: 12,
      sentenceWindowSize: 2,
      enableHyde: false,
      similarityCutoff: 0,
      enableRerank: true,
      enableRrf: true,
      vectorDatabaseType: null,
      vectorDatabaseUrl: null,
      storedCredentials: [],
      labels: [],
      groups: [],
      chatbots: [],
      filesCount: 0,
      chunksCount: 0,
      vectorStorageSize: 0,
      canUpdate: true,
      canDelete: true,
    });
    expect(kb.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(kb.createdAt).toMatch(/^\d+$/);
    expect(kb.updatedAt).toMatch(/^\d+$/);
    expect(
      await ok<"GET /knowledge-bases/{id}/">(
        await owner.fetch("GET", `/knowledge-bases/${kb.id}/`, undefined, { prefix }),
      ),
    ).toEqual(kb);
  });

  it("every field round-trips; chatbots links the assistant, which then lists the knowledge base", async () => {
    const owner = await seedOwner();
    const group = await createGroup(owner, ["knowledge_base.view"]);
    const bot = await createChatbot(owner);
    const body = base({
      description: "Articles of the help centre",
      embeddingModel: WORKERS_EMBEDDING,
      rerankerModel: WORKERS_RERANKER,
      numberOfRetrievedChunks: 7,
      sentenceWindowSize: 0,
      enableHyde: true,
      similarityCutoff: 0.35,
      enableRerank: false,
      enableRrf: false,
      groups: [{ id: group.id }],
      chatbots: [{ id: bot.id }],
    });
    const kb = await ok<"POST /knowledge-bases/">(await owner.fetch("POST", "/knowledge-bases/", body), 201);
    expect(kb).toMatchObject({
      ...body,
      embeddingModel: { id: WORKERS_EMBEDDING, name: "Workers AI BGE M3" },
      rerankerModel: { id: WORKERS_RERANKER, name: "Workers AI BGE Reranker" },
      groups: [{ id: group.id, name: group.name }],
      chatbots: [{ id: bot.id, name: bot.name }],
    });
    expect(await ok<"GET /knowledge-bases/{id}/">(await owner.fetch("GET", `/knowledge-bases/${kb.id}/`))).toEqual(kb);
    const linked = await ok<"GET /chatbots/{id}/">(await owner.fetch("GET", `/chatbots/${bot.id}/`));
    expect(linked.knowledgeBases).toEqual([{ id: kb.id, name: kb.name }]);
  });

  it("an external store: credentials are write-only, only their names come back", async () => {
    const owner = await seedOwner();
    await allowCustomElasticsearch(owner.organizationId);
    const secret = `pw-${unique("secret")}`;
    const res = await owner.fetch(
      "POST",
      "/knowledge-bases/",
      base({
        vectorDatabaseType: "opensearch",
        vectorDatabaseUrl: "https://search.example.com:9200",
        opensearchUsername: "admin",
        opensearchPassword: secret,
      }),
    );
    const text = await res.clone().text();
    const kb = await ok<"POST /knowledge-bases/">(res, 201);
    expect(text).not.toContain(secret);
    expect(kb).toMatchObject({
      vectorDatabaseType: "opensearch",
      vectorDatabaseUrl: "https://search.example.com:9200",
    });
    expect([...kb.storedCredentials].sort()).toEqual(["opensearchPassword", "opensearchUsername"]);
    const got = await owner.fetch("GET", `/knowledge-bases/${kb.id}/`);
    const gotText = await got.text();
    expect(gotText).not.toContain(secret);
    expect(JSON.parse(gotText).storedCredentials.sort()).toEqual(["opensearchPassword", "opensearchUsername"]);
    const listText = await (await owner.fetch("GET", "/knowledge-bases/")).text();
    expect(listText).toContain(kb.id);
    expect(listText).not.toContain(secret);

    const es = await createKnowledgeBase(owner, {
      vectorDatabaseType: "elasticsearch",
      vectorDatabaseUrl: "http://es.example.com",
      vectorDatabaseApiKey: secret,
    });
    expect(es).toMatchObject({ vectorDatabaseType: "elasticsearch", storedCredentials: ["vectorDatabaseApiKey"] });
    expect(JSON.stringify(es)).not.toContain(secret);
  });

  it("Elasticsearch and OpenSearch need canUseCustomElasticsearch: 403 naming it, nothing written", async () => {
    const owner = await seedOwner();
    const stores = {
      elasticsearch: { vectorDatabaseType: "elasticsearch", vectorDatabaseUrl: "https://es.example.com" },
      opensearch: {
        vectorDatabaseType: "opensearch",
        vectorDatabaseUrl: "https://os.example.com",
        opensearchUsername: "u",
        opensearchPassword: "p",
      },
    };
    for (const store of Object.values(stores)) {
      const err = await expectError(
        await owner.fetch("POST", "/knowledge-bases/", base(store)),
        403,
        "permission_denied",
      );
      expect(err.detail).toContain("canUseCustomElasticsearch");
    }
    expect(await countOf(owner)).toBe(0);
    // The flag names Elasticsearch (and OpenSearch, which speaks its API); the other stores are not behind it.
    await createKnowledgeBase(owner, {
      vectorDatabaseType: "synxdb",
      vectorDatabaseUrl: "https://sx.example.com",
      synxdbUser: "u",
      synxdbPassword: "p",
    });
    await allowCustomElasticsearch(owner.organizationId);
    for (const store of Object.values(stores)) await createKnowledgeBase(owner, store);
    expect(await countOf(owner)).toBe(3);
  });

  it.each<[string, Record<string, unknown>, string[]]>([
    ["missing name", { name: undefined }, ["name"]],
    ["blank name", { name: "   " }, ["name"]],
    ["malformed embeddingModel", { embeddingModel: "nope" }, ["embeddingModel"]],
    ["unknown embeddingModel", { embeddingModel: NO_SUCH_ID }, ["embeddingModel"]],
    ["an LLM as embeddingModel", { embeddingModel: LOCAL_LLM }, ["embeddingModel"]],
    ["an embedding model as rerankerModel", { rerankerModel: LOCAL_EMBEDDING }, ["rerankerModel"]],
    ["numberOfRetrievedChunks 0", { numberOfRetrievedChunks: 0 }, ["numberOfRetrievedChunks"]],
    ["sentenceWindowSize -1", { sentenceWindowSize: -1 }, ["sentenceWindowSize"]],
    ["similarityCutoff 1.5", { similarityCutoff: 1.5 }, ["similarityCutoff"]],
    ["unknown vectorDatabaseType", { vectorDatabaseType: "pinecone" }, ["vectorDatabaseType"]],
    [
      "opensearch without URL",
      { vectorDatabaseType: "opensearch", opensearchUsername: "u", opensearchPassword: "p" },
      ["vectorDatabaseUrl"],
    ],
    [
      "opensearch without credentials",
      { vectorDatabaseType: "opensearch", vectorDatabaseUrl: "https://os.example.com" },
      ["opensearchUsername"],
    ],
    [
      "opensearch without password",
      { vectorDatabaseType: "opensearch", vectorDatabaseUrl: "https://os.example.com", opensearchUsername: "u" },
      ["opensearchPassword"],
    ],
    [
      "an elasticsearch URL that is not http(s)",
      { vectorDatabaseType: "elasticsearch", vectorDatabaseUrl: "ftp://es.example.com" },
      ["vectorDatabaseUrl"],
    ],
    ["a URL without a store type", { vectorDatabaseUrl: "https://es.example.com" }, ["vectorDatabaseUrl"]],
    ["an unknown group", { groups: [{ id: NO_SUCH_ID }] }, ["groups"]],
    ["a malformed group id", { groups: [{ id: "nope" }] }, ["groups.0.id"]],
    ["an unknown assistant", { chatbots: [{ id: NO_SUCH_ID }] }, ["chatbots"]],
  ])("%s is a 400 naming the field; nothing is written", async (_label, patch, fields) => {
    const owner = await seedOwner();
    await createKnowledgeBase(owner);
    const err = await expectError(await owner.fetch("POST", "/knowledge-bases/", base(patch)), 400, "invalid");
    expect(Object.keys(err.errors!).sort()).toEqual(fields);
    expect(await countOf(owner)).toBe(1);
  });

  it("another organization's group or embedding model is a 400; nothing is written", async () => {
    const owner = await seedOwner();
    const other = await seedOwner();
    const theirs = await createGroup(other, []);
    await expectInvalid(
      await owner.fetch("POST", "/knowledge-bases/", base({ groups: [{ id: theirs.id }] })),
      "groups",
    );
    const model = await ok<"POST /embedding-models/">(
      await other.fetch("POST", "/embedding-models/", {
        name: unique("m"),
        provider: "openai_compatible",
        modelName: "e",
        baseUrl: "https://llm.example.com/v1",
        dimensions: 8,
      }),
      201,
    );
    await expectInvalid(
      await owner.fetch("POST", "/knowledge-bases/", base({ embeddingModel: model.id })),
      "embeddingModel",
    );
    expect(await countOf(owner)).toBe(0);
    expect(await countOf(other)).toBe(0);
  });

  it("401 without a key; 403 for a member without knowledge_base.manage; nothing written", async () => {
    const owner = await seedOwner();
    const viewer = await seedMember(owner, ["knowledge_base.view"]);
    const plain = await seedMember(owner);
    await expectError(await call("POST", "/api/v1/knowledge-bases/", base()), 401, "not_authenticated");
    await expectDenied(await viewer.fetch("POST", "/knowledge-bases/", base()));
    await expectDenied(await plain.fetch("POST", "/knowledge-bases/", base()));
    expect(await countOf(owner)).toBe(0);
  });

  it("a non-owner with knowledge_base.manage may only give it to groups they are in", async () => {
    const owner = await seedOwner();
    const manager = await seedMember(owner, ["knowledge_base.manage", "knowledge_base.view"]);
    const foreign = await createGroup(owner, ["knowledge_base.view"]);
    await expectDenied(await manager.fetch("POST", "/knowledge-bases/", base({ groups: [{ id: foreign.id }] })));
    await expectDenied(
      await manager.fetch("POST", "/knowledge-bases/", base({ groups: [{ id: manager.groupId }, { id: foreign.id }] })),
    );
    expect(await countOf(owner)).toBe(0);
    const kb = await createKnowledgeBase(manager, { groups: [{ id: manager.groupId }] });
    expect(kb).toMatchObject({
      organization: owner.organizationId,
      createdBy: { id: manager.userId },
      groups: [{ id: manager.groupId }],
      canUpdate: true,
    });
    expect(await countOf(owner)).toBe(1);
  });
});
