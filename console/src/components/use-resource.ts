import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { ApiProblem, problemOf } from "../api/client";

export interface Resource<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  /** Loads again (after a change); the current data stays on screen meanwhile. */
  reload: () => Promise<void>;
}

/**
 * Numbers a component's loads so only the latest one lands: an answer to an earlier request (older
 * filters, a page left) that arrives after a newer one's is dropped. `start()` begins a load and
 * returns a check that is true while no later load has started; `since()` is the same check without
 * beginning one (for a next page, which must not drop the load it extends); `stop()` drops whatever
 * is in flight (on unmount).
 */
export function useLatest() {
  const counter = useRef(0);
  return useRef({
    start: () => {
      const mine = ++counter.current;
      return () => mine === counter.current;
    },
    since: () => {
      const mine = counter.current;
      return () => mine === counter.current;
    },
    stop: () => void ++counter.current,
  }).current;
}

/** Data a page shows, loaded when `deps` change (the organization, the page number, ...). */
export function useResource<T>(load: () => Promise<T>, deps: unknown[]): Resource<T> {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; loading: boolean }>({
    data: undefined,
    error: null,
    loading: true,
  });
  const run = useCallback(load, deps);
  const latest = useLatest();
  const fetchInto = useCallback(async () => {
    const current = latest.start();
    try {
      const data = await run();
      if (current()) setState({ data, error: null, loading: false });
    } catch (error) {
      // A bug in `load` is thrown on (problemOf), not shown as a failed load.
      const problem = problemOf(error);
      if (current()) setState((s) => ({ ...s, error: problem, loading: false }));
    }
  }, [run]);
  const reload = useCallback(async () => {
    setState((s) => ({ ...s, loading: true }));
    await fetchInto();
  }, [fetchInto]);
  useEffect(() => {
    setState((s) => ({ ...s, loading: true, error: null }));
    void fetchInto();
    return latest.stop;
  }, [fetchInto]);
  return { ...state, reload };
}

/** The answers of a page past a list's end (the API's 404 "Invalid page."), with the page they answered. */
const pastTheEnd = new WeakMap<ApiProblem, number>();

/**
 * A page-form list: its page number (`first` at first) and that page, loaded when `deps` or the page change. A page
 * past the list's end, which its last row's delete (here or elsewhere) leaves behind, goes to the page before
 * (again until a page answers): its 404 is no error to show, and the list stays loading meanwhile.
 */
export function usePagedResource<T>(load: (page: number) => Promise<T>, deps: unknown[], first = 1) {
  const [page, setPage] = useState(first);
  const loaded = useResource(async () => {
    try {
      return await load(page);
    } catch (error) {
      if (page > 1 && error instanceof ApiProblem && error.status === 404) pastTheEnd.set(error, page);
      throw error;
    }
  }, [...deps, page]);
  // Kept with the answer, not read from `page`: the render after the step back still holds this 404.
  const past = loaded.error instanceof ApiProblem ? pastTheEnd.get(loaded.error) : undefined;
  useEffect(() => {
    if (past !== undefined) setPage(past - 1);
  }, [loaded.error]);
  const list: Resource<T> = past === undefined ? loaded : { ...loaded, error: null, loading: true };
  return { page, setPage, list };
}
