// A search asked through the API (a knowledge base's, an assistant's): a page of its results as records.
import type { Bindings, Db } from "../../../env";
import type { Page, PageWindow } from "../../../db/paginate";
import { modelApiError } from "../../llm/errors";
import { type SearchResultRecord, searchResult } from "../../records/search-results";
import type { KnowledgeBaseRow } from "../knowledge-bases";
import { type SearchOptions, searchKnowledge, serverTiming } from "./search";

/**
 * The `window` of a search's results, best first, with what each stage took (`serverTiming`, the Server-Timing
 * header's value). A provider's failure (the embedding model, HyDE's, the reranker) is the documented 502 (or the 400
 * of a model that cannot be used), not a server error.
 */
export async function searchPage(
  env: Bindings,
  db: Db,
  bases: KnowledgeBaseRow[],
  options: Omit<SearchOptions, "timings">,
  window: PageWindow,
): Promise<Page<SearchResultRecord> & { serverTiming: string }> {
  const timings: Record<string, number> = {};
  const hits = await searchKnowledge(env, db, bases, { ...options, timings }).catch((err) => {
    throw modelApiError(err);
  });
  return {
    count: hits.length,
    items: hits.slice(window.offset, window.offset + window.limit).map((h) => searchResult(h, options.query)),
    serverTiming: serverTiming(timings),
  };
}
