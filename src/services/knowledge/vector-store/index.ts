import type { Bindings } from "../../../env";
import { localVectorStore } from "./local";
import { vectorizeVectorStore } from "./vectorize";
import type { VectorStore } from "./types";

export type { VectorFilter, VectorMatch, VectorRecord, VectorStore } from "./types";

/** Vectorize when the VECTORIZE binding exists (deployments), else the local Durable Object store (STYLE 6). */
export function vectorStoreFor(env: Pick<Bindings, "VECTORIZE" | "VECTOR_INDEX">): VectorStore {
  return env.VECTORIZE ? vectorizeVectorStore(env.VECTORIZE) : localVectorStore(env.VECTOR_INDEX);
}
