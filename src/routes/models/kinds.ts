import type { ModelKind } from "../../services/models";

/** One model list per kind, each with its own path (CONTRACT section 5). The routes are written once. */
export interface ModelKindRoute {
  kind: ModelKind;
  path: "/large-language-models/" | "/embedding-models/" | "/reranker-models/";
  /** Singular and plural nouns for summaries. */
  noun: string;
  plural: string;
}

export const MODEL_KIND_ROUTES: ModelKindRoute[] = [
  { kind: "llm", path: "/large-language-models/", noun: "large language model", plural: "large language models" },
  { kind: "embedding", path: "/embedding-models/", noun: "embedding model", plural: "embedding models" },
  { kind: "reranker", path: "/reranker-models/", noun: "reranker model", plural: "reranker models" },
];

export const MODELS_TAG = "Models";
