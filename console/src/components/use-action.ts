import { useState } from "preact/hooks";
import { problemOf, type ApiProblem } from "../api/client";

/**
 * What a button (or a form) does with the API: `run` runs `action`, `busy` meanwhile; the API's or the network's
 * problem is kept for the page to show, and cleared by the next run (or by `clear`). Any other error (a bug in
 * `action`) is thrown on.
 */
export function useAction<Args extends unknown[]>(action: (...args: Args) => Promise<unknown>) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const run = async (...args: Args) => {
    setBusy(true);
    setProblem(null);
    try {
      await action(...args);
    } catch (err) {
      setProblem(problemOf(err));
    } finally {
      setBusy(false);
    }
  };
  return { busy, problem, run, clear: () => setProblem(null) };
}
