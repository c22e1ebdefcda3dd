import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { problemOf } from "../api/client";

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
