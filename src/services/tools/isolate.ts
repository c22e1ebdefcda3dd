import type { Bindings } from "../../env";
import { vendored } from "../../vendored";
import type { IsolateCall } from "./function-isolate";
import { type SandboxOutcome, quickJsWasm, runFunction } from "./sandbox";

/**
 * Where a function tool's code runs (docs/decisions.md, "Function tools: an isolate of their own"). With the Worker
 * Loader binding, in a Dynamic Worker: QuickJS as on the worker's thread, with the same limits, inside an isolate that
 * has no network and no bindings and a CPU limit per call, so a function that the interpreter's checks cannot stop
 * (a loop of builtins) ends at that limit alone, and no function shares a heap or a thread's time with the replies.
 * Without the binding, QuickJS on the worker's own thread.
 */
export async function runFunctionTool(
  env: Bindings,
  organizationId: string,
  code: string,
  args: Record<string, unknown>,
  timeoutMs: number,
): Promise<SandboxOutcome> {
  if (!env.FUNCTION_LOADER) return runFunction(code, args, { timeoutMs });
  const started = performance.now();
  const isolate = await vendored("functionIsolate");
  // One isolate an organization (kept warm by the loader between calls): no tenant's code shares another's.
  const worker = env.FUNCTION_LOADER.get(`function-tools:${organizationId}:${isolate.version}`, async () => ({
    compatibilityDate: isolate.compatibilityDate,
    mainModule: "function-isolate.js",
    modules: { "function-isolate.js": isolate.default, "quickjs.wasm": await quickJsWasm() },
    globalOutbound: null,
    env: {},
  }));
  const call: IsolateCall = { code, args, timeoutMs };
  let response: Response;
  try {
    response = await worker
      // The interpreter's own limit ends a call first; the CPU limit is for what its checks miss.
      .getEntrypoint(undefined, { limits: { cpuMs: timeoutMs + CPU_MARGIN_MS } })
      .fetch("http://function-tool/", {
        method: "POST",
        body: JSON.stringify(call),
        signal: AbortSignal.timeout(timeoutMs + WALL_MARGIN_MS),
      });
  } catch (err) {
    // The isolate's limits end a call by throwing; anything else is a fault the agent's loop logs (agent/loop.ts).
    if (!endedByLimit(err)) throw err;
    return {
      status: "timeout",
      error: `The function did not finish within ${timeoutMs / 1000} s.`,
      logs: [],
      durationMs: Math.round(performance.now() - started),
    };
  }
  if (!response.ok) throw new Error(`The function's isolate answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as SandboxOutcome;
}

/** The call's wall time ran out, or the isolate's CPU limit ended it ("exceeded CPU time limit"). */
const endedByLimit = (err: unknown) =>
  err instanceof Error && (err.name === "TimeoutError" || /\bCPU\b/i.test(err.message));

/** CPU beyond the time limit: loading QuickJS in a new isolate and passing the result. */
const CPU_MARGIN_MS = 500;
/** Wall time beyond it, for a call whose isolate never answers. */
const WALL_MARGIN_MS = 2_000;
