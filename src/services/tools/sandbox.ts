import type { QuickJSContext, QuickJSHandle, QuickJSWASMModule } from "quickjs-emscripten-core";
import { lazy } from "../../lib/lazy";

/**
 * Function tools run user JavaScript in QuickJS compiled to WebAssembly (docs/decisions.md, "Function
 * tools"): a separate interpreter with its own heap, given only the call's arguments and a console.
 * No env, no bindings, no fetch, no timers; a fresh runtime per call, so calls share nothing.
 */
export interface SandboxLimits {
  /** Time for the whole call, interpreter and pending promise jobs (default 5 s), and its worth of interrupt checks. */
  timeoutMs?: number;
  /** Heap of the interpreter (default 32 MiB). */
  memoryBytes?: number;
  /** The clock the time limit is read on (tests freeze it, as a deployed worker's is while code runs). */
  now?: () => number;
}

type Ending = { status: "success"; output: unknown } | { status: "failure" | "timeout"; error: string };
export type SandboxOutcome = Ending & { logs: string[]; durationMs: number };

const timeout = (timeoutMs: number): Ending => ({
  status: "timeout",
  error: `The function did not finish within ${timeoutMs / 1000} s.`,
});

export const DEFAULT_FUNCTION_TIMEOUT_MS = 5_000;
const DEFAULT_MEMORY_BYTES = 32 * 1024 * 1024;
const MAX_LOG_LINES = 50;
const MAX_OUTPUT_CHARS = 100_000;
/**
 * How often QuickJS asks the interrupt handler in a loop: a check every 10,000 turns, 5 to 8 a millisecond in a loop
 * with a body here (`for (;;) n++`: 5,000 in 0.6 s), up to 40 in an empty one. Deployed, a worker's clock stands still
 * while code runs (it moves at I/O), so the time limit alone would never end an endless loop: the checks are counted
 * too, and a call ends once it has made its limit's worth of them (docs/decisions.md, "Function tools: the sandbox").
 */
const CHECKS_PER_MS = 5;

let loaded: QuickJSWASMModule | null = null;

/**
 * The interpreter's WebAssembly module, instantiated once per isolate by the first call; its
 * JavaScript glue is imported then too, not at every cold start (docs/decisions.md, "Cold start").
 */
export const quickJs = lazy(() =>
  Promise.all([import("quickjs-emscripten-core"), import("@jitl/quickjs-wasmfile-release-sync"), quickJsWasm()]).then(
    async ([glue, variant, wasmModule]) => {
      return (loaded = await glue.newQuickJSWASMModuleFromVariant(glue.newVariant(variant.default, { wasmModule })));
    },
  ),
);

/** QuickJS's WebAssembly: workerd (and Miniflare) import a .wasm file as a compiled module (no fetch, no eval). */
export const quickJsWasm = lazy(() =>
  import("@jitl/quickjs-wasmfile-release-sync/wasm").then((wasm) => wasm.default as WebAssembly.Module),
);

/** Whether the interpreter is already loaded in this isolate (for benchmarks). */
export const sandboxWarm = () => loaded !== null;

/**
 * The user's code is a script defining `main(args)` (or `handler`/`run`), sync or async; its return
 * value, JSON-serialisable, is the tool's output. Without such a function the script's last
 * expression is the output, with the arguments in a global `args`.
 */
// `void 0` after the directive: a script of declarations alone would otherwise complete with the directive's string.
const PRELUDE = `"use strict"; void 0;`;
const ENTRY = `typeof main === "function" ? main : typeof handler === "function" ? handler
  : typeof run === "function" ? run : null`;
/** `{entry: false}` without an entry function; else `{entry: true, value}`, what it returned (undefined too). */
const CALL = `(function () { const f = ${ENTRY}; return f ? { entry: true, value: f(args) } : { entry: false }; })()`;

export async function runFunction(
  code: string,
  args: Record<string, unknown>,
  limits: SandboxLimits = {},
): Promise<SandboxOutcome> {
  const started = performance.now();
  const module = loaded ?? (await quickJs());
  const timeoutMs = limits.timeoutMs ?? DEFAULT_FUNCTION_TIMEOUT_MS;
  const now = limits.now ?? Date.now;
  const deadline = now() + timeoutMs;
  const runtime = limitedRuntime(module, limits.memoryBytes);
  let timedOut = false;
  let checks = 0;
  const checksAllowed = timeoutMs * CHECKS_PER_MS;
  const over = () => ++checks > checksAllowed || now() > deadline;
  runtime.setInterruptHandler(() => (over() ? (timedOut = true) : false));
  const vm = runtime.newContext();
  const logs: string[] = [];
  const done = (o: Ending): SandboxOutcome =>
    ({ ...o, logs, durationMs: Math.round(performance.now() - started) }) as SandboxOutcome;
  try {
    installGlobals(vm, args, logs);
    const script = vm.evalCode(`${PRELUDE}\n${code}`, "tool.js");
    if (script.error) return done(failure(vm, script.error, timedOut));
    const last = script.value;
    const called = vm.evalCode(CALL, "call.js");
    if (called.error) {
      last.dispose();
      return done(failure(vm, called.error, timedOut));
    }
    const entry = vm.getProp(called.value, "entry");
    const fromMain = vm.dump(entry) === true;
    entry.dispose();
    let result: QuickJSHandle = fromMain ? vm.getProp(called.value, "value") : last;
    called.value.dispose();
    if (fromMain) last.dispose();
    const state = vm.getPromiseState(result);
    if (!(state.type === "fulfilled" && state.notAPromise)) {
      if (state.type === "fulfilled") state.value.dispose();
      else if (state.type === "rejected") state.error.dispose();
      // A round of promise jobs counts as a check: a loop of awaits runs few steps between the interpreter's own.
      const settled = await settle(vm, runtime, result, () => timedOut || over());
      result.dispose();
      if ("error" in settled) return done(failure(vm, settled.error, timedOut || settled.timeout === true));
      result = settled.value;
    }
    const output = readOutput(vm, result);
    result.dispose();
    // Serialising runs the result's own code (getters, toJSON, a proxy's traps): a loop there is the call's too.
    if (output instanceof Unserialisable) return done(failure(vm, output.error, timedOut));
    if (timedOut) return done(timeout(timeoutMs));
    if (output === OVERSIZED)
      return done({
        status: "failure",
        error: `The function's result is larger than ${MAX_OUTPUT_CHARS} characters (as JSON), so it was not kept.`,
      });
    return done({ status: "success", output });
  } catch (err) {
    return done(
      timedOut
        ? timeout(timeoutMs)
        : { status: "failure", error: String((err as Error)?.message ?? err).slice(0, 1000) },
    );
  } finally {
    try {
      vm.dispose();
      runtime.dispose();
    } catch {
      // A runtime stopped mid-allocation (memory limit) may refuse to free cleanly; the next call gets a new one.
    }
  }
}

/** A runtime of its own with a heap and a stack limit: what QuickJS checks to end a deep recursion itself. */
function limitedRuntime(module: QuickJSWASMModule, memoryBytes = DEFAULT_MEMORY_BYTES, stackBytes = 1024 * 1024) {
  const runtime = module.newRuntime();
  runtime.setMemoryLimit(memoryBytes);
  runtime.setMaxStackSize(stackBytes);
  return runtime;
}

/**
 * The compiler's stack. QuickJS's parser recurses per level of nesting, each level taking far more of the host's stack
 * (the WebAssembly frames) than of its own: with 1 MiB, 700 nested brackets overflowed the host's stack first, a
 * RangeError that leaves the interpreter's stack pointer where it was for the calls after it. With 16 KiB QuickJS
 * stops first (about 250 brackets, 150 blocks, 1,000 unary operators deep; measured up to 45,000), which no
 * hand-written function nears.
 */
const COMPILE_STACK_BYTES = 16 * 1024;

/** The syntax error of `code`, or null when it compiles. */
export async function compileProblem(code: string): Promise<string | null> {
  const module = loaded ?? (await quickJs());
  const runtime = limitedRuntime(module, DEFAULT_MEMORY_BYTES, COMPILE_STACK_BYTES);
  const vm = runtime.newContext();
  try {
    const result = vm.evalCode(`${PRELUDE}\n${code}`, "tool.js", { compileOnly: true });
    if (!result.error) {
      result.value.dispose();
      return null;
    }
    const error = vm.dump(result.error);
    result.error.dispose();
    return `Does not compile: ${errorText(error)}`;
  } catch (err) {
    // The host's own limits stopping the compiler (its stack: a RangeError; a trap in the interpreter) are the code's
    // problem too, told at functionCode; anything else is ours.
    if (!(err instanceof RangeError || err instanceof WebAssembly.RuntimeError)) throw err;
    return `Does not compile: ${String(err.message).slice(0, 1000)}`;
  } finally {
    try {
      vm.dispose();
      runtime.dispose();
    } catch {
      // As after a call: a runtime stopped midway may refuse to free cleanly.
    }
  }
}

function installGlobals(vm: QuickJSContext, args: Record<string, unknown>, logs: string[]) {
  const parsed = vm.evalCode(`(${JSON.stringify(JSON.stringify(args))})`);
  if (parsed.error) throw new Error("arguments could not be passed");
  const json = vm.getProp(vm.global, "JSON");
  const parse = vm.getProp(json, "parse");
  const value = vm.unwrapResult(vm.callFunction(parse, json, parsed.value));
  vm.setProp(vm.global, "args", value);
  [parsed.value, json, parse, value].forEach((h) => {
    h.dispose();
  });
  const console = vm.newObject();
  for (const level of ["log", "info", "warn", "error"]) {
    const fn = vm.newFunction(level, (...parts) => {
      if (logs.length < MAX_LOG_LINES)
        logs.push(
          parts
            .map((p) => logText(vm.dump(p)))
            .join(" ")
            .slice(0, 1000),
        );
    });
    vm.setProp(console, level, fn);
    fn.dispose();
  }
  vm.setProp(vm.global, "console", console);
  console.dispose();
}

/** A logged value as a line shows it: an object (dumped as JSON already) as its JSON, anything else as its text. */
function logText(dumped: unknown): string {
  if (dumped === null || typeof dumped !== "object") return String(dumped);
  try {
    return JSON.stringify(dumped);
  } catch {
    return String(dumped);
  }
}

/**
 * Promise jobs run between two looks at the limit: a loop of awaits makes few of the interpreter's own checks (its
 * steps are in the job queue's native code), so rounds of jobs are counted as checks too.
 */
const JOBS_PER_ROUND = 100;

/** Runs the promise jobs until `promise` settles or the call is `over` its limit. */
async function settle(
  vm: QuickJSContext,
  runtime: ReturnType<QuickJSWASMModule["newRuntime"]>,
  promise: QuickJSHandle,
  over: () => boolean,
): Promise<{ value: QuickJSHandle } | { error: QuickJSHandle; timeout?: boolean }> {
  for (;;) {
    const state = vm.getPromiseState(promise);
    if (state.type === "fulfilled") return { value: state.value };
    if (state.type === "rejected") return { error: state.error };
    if (!runtime.hasPendingJob())
      return {
        error: vm.newError("The function's promise never settles (no timers or network exist here)."),
        timeout: false,
      };
    const ran = runtime.executePendingJobs(JOBS_PER_ROUND);
    if (ran.error) return { error: ran.error };
    if (over()) return { error: vm.newError("deadline"), timeout: true };
  }
}

function failure(vm: QuickJSContext, error: QuickJSHandle, timedOut: boolean): Ending {
  const dumped = vm.dump(error);
  error.dispose();
  if (timedOut) return { status: "timeout", error: "The function did not finish within its time limit." };
  return { status: "failure", error: errorText(dumped) };
}

function errorText(dumped: unknown): string {
  if (dumped && typeof dumped === "object") {
    const e = dumped as { name?: unknown; message?: unknown };
    if (typeof e.message === "string")
      return `${typeof e.name === "string" ? `${e.name}: ` : ""}${e.message}`.slice(0, 1000);
  }
  return String(dumped).slice(0, 1000);
}

/** A result too large to keep: the call fails rather than hand the model a cut-off value. */
const OVERSIZED = Symbol("oversized");

/** A result JSON cannot hold (cyclic, a BigInt inside, a throwing toJSON): its error, not a stand-in string. */
class Unserialisable {
  constructor(readonly error: QuickJSHandle) {}
}

function readOutput(vm: QuickJSContext, h: QuickJSHandle): unknown {
  if (vm.typeof(h) === "undefined") return null;
  const json = vm.getProp(vm.global, "JSON");
  const stringify = vm.getProp(json, "stringify");
  const text = vm.callFunction(stringify, json, h);
  json.dispose();
  stringify.dispose();
  if (text.error) return new Unserialisable(text.error);
  // JSON.stringify gives undefined for a function or a symbol, as for undefined itself: no output.
  const s = vm.typeof(text.value) === "undefined" ? undefined : vm.getString(text.value);
  text.value.dispose();
  if (s === undefined) return null;
  if (s.length > MAX_OUTPUT_CHARS) return OVERSIZED;
  return JSON.parse(s);
}
