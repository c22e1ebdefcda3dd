import { describe, expect, it } from "vitest";
import { PREFIXES, call } from "../../harness";
import { documentOf } from "../../support/api";

const KB = "/knowledge-bases/{knowledgeBaseId}";
const ROUTES: [string, string[]][] = [
  ["/knowledge-bases/", ["get", "post"]],
  ["/knowledge-bases/{id}/", ["delete", "get", "patch", "put"]],
  [`${KB}/files/`, ["get", "post"]],
  [`${KB}/files/{fileId}/`, ["delete", "get"]],
  [`${KB}/files/batch-delete/`, ["post"]],
  [`${KB}/files/batch-reparse/`, ["patch"]],
  [`${KB}/files/{fileId}/update-metadata/`, ["patch"]],
  [`${KB}/files/{fileId}/download/`, ["get"]],
  [`${KB}/faqs/`, ["get", "post"]],
  [`${KB}/faqs/{faqId}/`, ["delete", "get", "patch", "put"]],
  [`${KB}/faqs/{faqId}/update-metadata/`, ["patch"]],
  [`${KB}/faqs/batch-delete/`, ["post"]],
  [`${KB}/labels/`, ["get", "post"]],
  [`${KB}/labels/{labelId}/`, ["delete", "get", "put"]],
  [`${KB}/search/`, ["post"]],
];

const fetchDoc = async () => {
  const res = await call("GET", "/api/v1/openapi.json");
  expect(res.status).toBe(200);
  return documentOf(res);
};

describe("knowledge bases in the OpenAPI document", () => {
  it("documents every knowledge-base path and method under both prefixes, tagged Knowledge bases", async () => {
    const doc = await fetchDoc();
    for (const prefix of PREFIXES) {
      for (const [path, methods] of ROUTES) {
        const item = doc.paths[`${prefix}${path}`] ?? {};
        expect(Object.keys(item).sort(), `${prefix}${path}`).toEqual(methods);
        for (const [method, op] of Object.entries(item)) {
          expect(op.tags, `${method} ${prefix}${path}`).toEqual(["Knowledge bases"]);
          expect(op.summary, `${method} ${prefix}${path}`).toBeTruthy();
        }
      }
      // Nothing under /knowledge-bases is left out of the list above.
      const documented = Object.keys(doc.paths).filter((p) => p.startsWith(`${prefix}/knowledge-bases/`));
      expect(documented.sort()).toEqual(ROUTES.map(([p]) => `${prefix}${p}`).sort());
      const chatbotSearch = doc.paths[`${prefix}/chatbots/{id}/search/`];
      expect(Object.keys(chatbotSearch ?? {}), `${prefix}/chatbots/{id}/search/`).toEqual(["post"]);
      expect(chatbotSearch.post.tags).toEqual(["Assistants"]);
    }
  });

  it("the CRUD operations name their schemas and error responses", async () => {
    const doc = await fetchDoc();
    const item = doc.paths["/api/v1/knowledge-bases/{id}/"];
    expect(Object.keys(item.get.responses!)).toEqual(expect.arrayContaining(["200", "401", "404"]));
    expect(Object.keys(item.put.responses!)).toEqual(expect.arrayContaining(["200", "400", "401", "403", "404"]));
    expect(Object.keys(item.delete.responses!)).toEqual(expect.arrayContaining(["204", "401", "403", "404"]));
    expect(Object.keys(doc.paths["/api/v1/knowledge-bases/"].post.responses!)).toEqual(
      expect.arrayContaining(["201", "400", "401", "403"]),
    );
    const record = doc.components.schemas.KnowledgeBase.properties!;
    for (const field of [
      "numberOfRetrievedChunks",
      "sentenceWindowSize",
      "enableHyde",
      "similarityCutoff",
      "enableRerank",
      "enableRrf",
      "storedCredentials",
      "filesCount",
      "chunksCount",
      "vectorStorageSize",
    ]) {
      expect(record, field).toHaveProperty(field);
    }
    // Credentials are write-only: in the request body, never in the record.
    for (const secret of ["opensearchPassword", "vectorDatabaseApiKey", "oraclePassword", "synxdbPassword"]) {
      expect(record).not.toHaveProperty(secret);
      expect(doc.components.schemas.KnowledgeBaseWrite.properties).toHaveProperty(secret);
    }
    expect([...doc.components.schemas.KnowledgeBaseWrite.required!].sort()).toEqual([
      "embeddingModel",
      "name",
      "rerankerModel",
    ]);
    expect(doc.components.schemas.KnowledgeBasePatch.required ?? []).toEqual([]);
  });
});
