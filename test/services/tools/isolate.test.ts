import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Bindings } from "../../../src/env";
import { runFunctionTool } from "../../../src/services/tools/isolate";

const bindings: Bindings = env;

/** The real Worker Loader, with what the worker asks of it written down. */
function watchedLoader() {
  const asked: { id: string | null; code: WorkerLoaderWorkerCode }[] = [];
  const loader: WorkerLoader = {
    get: (id, getCode) =>
      bindings.FUNCTION_LOADER!.get(id, async () => {
        const code = await getCode();
        asked.push({ id, code });
        return code;
      }),
    load: (code) => bindings.FUNCTION_LOADER!.load(code),
  };
  return { asked, env: { ...bindings, FUNCTION_LOADER: loader } };
}

describe("function tools in a Dynamic Worker (services/tools/isolate.ts)", () => {
  it("runs the code in an isolate of the organization's own, without network or bindings", async () => {
    const { asked, env } = watchedLoader();
    const org = `org-${crypto.randomUUID()}`;
    const code = "function main(args) { console.log('adding', args.a, args.b); return { sum: args.a + args.b }; }";
    expect(await runFunctionTool(env, org, code, { a: 2, b: 3 }, 2_000)).toMatchObject({
      status: "success",
      output: { sum: 5 },
      logs: ["adding 2 3"],
    });
    expect(asked).toHaveLength(1);
    expect(asked[0].id).toMatch(new RegExp(`^function-tools:${org}:[0-9a-f]{16}$`));
    expect(asked[0].code).toMatchObject({ globalOutbound: null, env: {}, mainModule: "function-isolate.js" });
    expect(Object.keys(asked[0].code.modules).sort()).toEqual(["function-isolate.js", "quickjs.wasm"]);

    // The next call of the organization finds its isolate loaded; another organization's gets one of its own.
    expect(await runFunctionTool(env, org, "args.word.toUpperCase()", { word: "ok" }, 2_000)).toMatchObject({
      status: "success",
      output: "OK",
    });
    const other = `org-${crypto.randomUUID()}`;
    await runFunctionTool(env, other, "1 + 1", {}, 2_000);
    expect(asked.map((a) => a.id?.split(":")[1])).toEqual([org, other]);
  });

  it("keeps the interpreter's limits and endings: a loop is a timeout, a throw a failure with its logs", async () => {
    const org = `org-${crypto.randomUUID()}`;
    const spin = await runFunctionTool(bindings, org, "function main() { for (;;) {} }", {}, 300);
    expect(spin).toMatchObject({ status: "timeout" });
    expect(spin.durationMs).toBeLessThan(2_000);
    const thrown = await runFunctionTool(
      bindings,
      org,
      "function main() { console.log('before'); throw new TypeError('bad input'); }",
      {},
      2_000,
    );
    expect(thrown).toMatchObject({ status: "failure", error: "TypeError: bad input", logs: ["before"] });
    const oversized = await runFunctionTool(bindings, org, "'x'.repeat(200000)", {}, 2_000);
    expect(oversized).toMatchObject({ status: "failure", error: expect.stringContaining("larger than 100000") });
  });

  it("without the binding, runs on the worker's own thread alike", async () => {
    const { asked, env } = watchedLoader();
    const out = await runFunctionTool({ ...env, FUNCTION_LOADER: undefined }, "org-x", "args.n * 2", { n: 21 }, 2_000);
    expect(out).toMatchObject({ status: "success", output: 42 });
    expect(asked).toEqual([]);
  });
});
