import { api, unwrap, type BodyOf, type Schemas } from "../../api/client";
import type { paths } from "../../api/schema";

export type Model = Schemas["Model"];
export type ModelKind = Model["kind"];
export type ConnectionTest = Schemas["ModelConnectionTest"];
export const MODEL_KINDS: ModelKind[] = ["llm", "embedding", "reranker"];

// The three kinds have the same endpoints and schemas under their own paths (CONTRACT section 5),
// so one kind's typed path stands for all three.
const PATHS = {
  llm: "/api/v1/large-language-models/",
  embedding: "/api/v1/embedding-models/",
  reranker: "/api/v1/reranker-models/",
} as const;
type List = "/api/v1/large-language-models/";
type Item = "/api/v1/large-language-models/{id}/";
type Test = "/api/v1/large-language-models/{id}/test-connection/";
const list = (kind: ModelKind) => PATHS[kind] as List;
const item = (kind: ModelKind) => `${PATHS[kind]}{id}/` as Item;
const test = (kind: ModelKind) => `${PATHS[kind]}{id}/test-connection/` as Test;

export type ModelWrite = paths[List]["post"]["requestBody"]["content"]["application/json"];

/** Every model of the organization, kind by kind (built-in ones first), up to 100 of each. */
export async function listModels(): Promise<{ models: Model[]; truncated: boolean }> {
  const pages = await Promise.all(
    MODEL_KINDS.map((kind) => unwrap(api.GET(list(kind), { params: { query: { pageSize: 100 } } }))),
  );
  return { models: pages.flatMap((p) => p.results), truncated: pages.some((p) => p.next) };
}

export const createModel = (kind: ModelKind, body: ModelWrite) => unwrap(api.POST(list(kind), { body }));
export const updateModel = (model: Model, body: Partial<ModelWrite>) =>
  unwrap(api.PATCH(item(model.kind), { params: { path: { id: model.id } }, body }));
export const deleteModel = (model: Model) =>
  unwrap(api.DELETE(item(model.kind), { params: { path: { id: model.id } } }));
export const testModel = (model: Model): Promise<ConnectionTest> =>
  unwrap(api.POST(test(model.kind), { params: { path: { id: model.id } } }));

export type ApiKey = Schemas["ApiKey"];
export type ConsoleSession = Schemas["ConsoleSession"];
/** The user's own API keys and console sessions (a page of each at a time). */
export const PAGE_SIZE = 20;

export const listApiKeys = (page: number) =>
  unwrap(api.GET("/api/v1/api-keys/", { params: { query: { page, pageSize: PAGE_SIZE } } }));
export const createApiKey = (body: BodyOf<"/api/v1/api-keys/", "post">) =>
  unwrap(api.POST("/api/v1/api-keys/", { body }));
export const revokeApiKey = (id: string) => unwrap(api.DELETE("/api/v1/api-keys/{id}/", { params: { path: { id } } }));
export const listSessions = (page: number) =>
  unwrap(api.GET("/api/v1/auth/sessions/", { params: { query: { page, pageSize: PAGE_SIZE } } }));
export const revokeSession = (id: string) =>
  unwrap(api.DELETE("/api/v1/auth/sessions/{id}/", { params: { path: { id } } }));
