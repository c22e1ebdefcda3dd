// The knowledge base endpoints this page calls (CONTRACT section 9), typed by the generated schema.
import { choicesOf } from "../../api/choices";
import { api, unwrap, type Schemas } from "../../api/client";
import type { Availability } from "../../components";

export type KnowledgeBase = Schemas["KnowledgeBase"];
export type KnowledgeBaseWrite = Schemas["KnowledgeBaseWrite"];
export type KnowledgeBaseFile = Schemas["KnowledgeBaseFile"];
export type Faq = Schemas["Faq"];
export type FaqWrite = Schemas["FaqWrite"];
export type Label = Schemas["KnowledgeBaseLabel"];
export type SearchResult = Schemas["SearchResult"];
export type SearchBody = Schemas["KnowledgeBaseSearch"];
export type TextNode = Schemas["TextNode"];
/** A record's reference to another (`{id, name}`), and a choice of the settings form. */
export type Option = Schemas["IdName"];
/** A model of the settings form, with whether it can answer in this deployment. */
export type ModelChoice = Option & Availability;
export const PAGE_SIZE = 20;

const kb = (knowledgeBaseId: string) => ({ params: { path: { knowledgeBaseId } } });

export const listKnowledgeBases = (page: number, query: string) =>
  unwrap(
    api.GET("/api/v1/knowledge-bases/", {
      params: { query: { page, pageSize: PAGE_SIZE, query: query || undefined } },
    }),
  );
export const getKnowledgeBase = (id: string) =>
  unwrap(api.GET("/api/v1/knowledge-bases/{id}/", { params: { path: { id } } }));
export const createKnowledgeBase = (body: KnowledgeBaseWrite) => unwrap(api.POST("/api/v1/knowledge-bases/", { body }));
export const updateKnowledgeBase = (id: string, body: Schemas["KnowledgeBasePatch"]) =>
  unwrap(api.PATCH("/api/v1/knowledge-bases/{id}/", { params: { path: { id } }, body }));
export const deleteKnowledgeBase = (id: string) =>
  unwrap(api.DELETE("/api/v1/knowledge-bases/{id}/", { params: { path: { id } } }));

/** What the settings form offers: the organization's embedding and reranker models, its groups and assistants (up to
 * 100 each). */
export async function formOptions(organizationId: string) {
  // Models keep whether they can answer here: an unavailable one is offered disabled, with its reason.
  const models = (p: Promise<{ results: ModelChoice[] }>) =>
    p.then((page) =>
      page.results.map(
        ({ id, name, available, unavailableReason, unavailableCode }): ModelChoice => ({
          id,
          name,
          available,
          unavailableReason,
          unavailableCode,
        }),
      ),
    );
  // Groups need `group.view` and assistants `chatbot.view`: a member without them keeps what the record shows.
  const [embeddings, rerankers, groups, chatbots, organization] = await Promise.all([
    models(unwrap(api.GET("/api/v1/embedding-models/", { params: { query: { pageSize: 100 } } }))),
    models(unwrap(api.GET("/api/v1/reranker-models/", { params: { query: { pageSize: 100 } } }))),
    choicesOf("groups", organizationId),
    choicesOf("assistants", organizationId),
    unwrap(api.GET("/api/v1/organizations/{id}/", { params: { path: { id: organizationId } } })),
  ]);
  // Elasticsearch and OpenSearch stores are the organization's feature `canUseCustomElasticsearch` (403 without it).
  return { embeddings, rerankers, groups, chatbots, customElasticsearch: organization.canUseCustomElasticsearch };
}

export const listFiles = (id: string, page: number) =>
  unwrap(
    api.GET("/api/v1/knowledge-bases/{knowledgeBaseId}/files/", {
      params: { path: { knowledgeBaseId: id }, query: { page, pageSize: PAGE_SIZE } },
    }),
  );
export const attachFile = (id: string, key: string, filename: string) =>
  unwrap(
    api.POST("/api/v1/knowledge-bases/{knowledgeBaseId}/files/", {
      ...kb(id),
      body: { files: [{ file: key, filename }] },
    }),
  );
export const deleteFile = (id: string, fileId: string) =>
  unwrap(
    api.DELETE("/api/v1/knowledge-bases/{knowledgeBaseId}/files/{fileId}/", {
      params: { path: { knowledgeBaseId: id, fileId } },
    }),
  );
export const reparseFile = (id: string, fileId: string) =>
  unwrap(
    api.PATCH("/api/v1/knowledge-bases/{knowledgeBaseId}/files/batch-reparse/", { ...kb(id), body: [{ id: fileId }] }),
  );

export const listFaqs = (id: string, page: number, query: string) =>
  unwrap(
    api.GET("/api/v1/knowledge-bases/{knowledgeBaseId}/faqs/", {
      params: { path: { knowledgeBaseId: id }, query: { page, pageSize: PAGE_SIZE, query: query || undefined } },
    }),
  );
export const createFaq = (id: string, body: FaqWrite) =>
  unwrap(api.POST("/api/v1/knowledge-bases/{knowledgeBaseId}/faqs/", { ...kb(id), body }));
export const updateFaq = (id: string, faqId: string, body: Schemas["FaqPatch"]) =>
  unwrap(
    api.PATCH("/api/v1/knowledge-bases/{knowledgeBaseId}/faqs/{faqId}/", {
      params: { path: { knowledgeBaseId: id, faqId } },
      body,
    }),
  );
export const deleteFaq = (id: string, faqId: string) =>
  unwrap(
    api.DELETE("/api/v1/knowledge-bases/{knowledgeBaseId}/faqs/{faqId}/", {
      params: { path: { knowledgeBaseId: id, faqId } },
    }),
  );

export const listLabels = (id: string) =>
  unwrap(
    api.GET("/api/v1/knowledge-bases/{knowledgeBaseId}/labels/", {
      params: { path: { knowledgeBaseId: id }, query: { pageSize: 100 } },
    }),
  ).then((p) => p.results);
export const createLabel = (id: string, name: string) =>
  unwrap(api.POST("/api/v1/knowledge-bases/{knowledgeBaseId}/labels/", { ...kb(id), body: { name } }));
export const deleteLabel = (id: string, labelId: string) =>
  unwrap(
    api.DELETE("/api/v1/knowledge-bases/{knowledgeBaseId}/labels/{labelId}/", {
      params: { path: { knowledgeBaseId: id, labelId } },
    }),
  );

export const search = (id: string, body: SearchBody) =>
  unwrap(
    api.POST("/api/v1/knowledge-bases/{knowledgeBaseId}/search/", {
      body,
      params: { path: { knowledgeBaseId: id }, query: { pageSize: 100 } },
    }),
  );

/** A file's text nodes: /api/v1 answers in the newer page form (the document lists /api's cursor form beside it). */
export const listTextNodes = (fileId: string, page: number, query: string) =>
  unwrap(
    api.GET("/api/v1/chatbot-text-nodes/", {
      params: { query: { knowledgeBaseFile: fileId, page, pageSize: PAGE_SIZE, query: query || undefined } },
    }),
  ) as Promise<Schemas["TextNodePage"]>;

export const updateTextNode = (id: string, text: string) =>
  unwrap(
    api.PATCH("/api/v1/chatbot-text-nodes/{id}/", { params: { path: { id } }, body: { text } }),
  ) as Promise<TextNode>;
export const deleteTextNode = (id: string) =>
  unwrap(api.DELETE("/api/v1/chatbot-text-nodes/{id}/", { params: { path: { id } } }));
