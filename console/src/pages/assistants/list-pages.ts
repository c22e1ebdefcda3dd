// Pages of the assistants list as the API serves them, kept for a short while and fetched ahead:
// once a page shows, the pages before and after it are asked for, so "Next" and "Previous" show
// at once. Searching asks the API afresh. The list starts empty whenever the page is opened.
import { PAGE_SIZE, listAssistants } from "./api";
import { otherwise } from "../../api/client";

type Page = Awaited<ReturnType<typeof listAssistants>>;
const FRESH_MS = 30_000;
const KEPT = 20;
const pages = new Map<string, { at: number; page: Promise<Page> }>();

export function forgetPages() {
  pages.clear();
}

export function listPage(page: number, query: string): Promise<Page> {
  const key = `${page}\n${query}`;
  const kept = pages.get(key);
  if (kept && Date.now() - kept.at < FRESH_MS) return kept.page;
  const fetched = listAssistants(page, query);
  pages.set(key, { at: Date.now(), page: fetched });
  // Only forgets a failed page (to ask again next time): the rejection still reaches the callers of `fetched`.
  fetched.catch(() => pages.delete(key));
  // The oldest go first (a Map keeps insertion order).
  while (pages.size > KEPT) pages.delete(pages.keys().next().value!);
  return fetched;
}

/** Fetches the neighbours of a page that just showed. */
export function prefetchAround(page: number, query: string, count: number) {
  const last = Math.max(1, Math.ceil(count / PAGE_SIZE));
  for (const n of [page + 1, page - 1]) if (n >= 1 && n <= last) listPage(n, query).catch(otherwise(undefined));
}
