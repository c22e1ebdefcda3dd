import type { VectorFilter } from "./types";

/** Whether a source passes the filter, as a test per source; null when the filter lets everything through. */
export function sourcePredicate(filter: VectorFilter | undefined): ((sourceId: string) => boolean) | null {
  const only = filter?.sourceIds?.in ? new Set(filter.sourceIds.in) : null;
  const except = filter?.sourceIds?.notIn?.length ? new Set(filter.sourceIds.notIn) : null;
  return only || except ? (source) => (!only || only.has(source)) && !except?.has(source) : null;
}
